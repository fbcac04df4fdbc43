import { createHash } from "node:crypto";
import sodium from "libsodium-wrappers";

/**
 * The sandbox's side of GitHub's secret encryption: a Curve25519 key pair per place whose public
 * key `GET …/secrets/public-key` answers, and the opening of the libsodium sealed boxes clients
 * send (`crypto_box_seal_open`). The sandbox waits for libsodium when it starts (`sealingReady`),
 * so its handlers stay synchronous.
 */

export interface SealingKey {
  /** GitHub's key ids are strings of digits ("012345678912345678" in its examples). */
  key_id: string;
  publicKey: Uint8Array;
  privateKey: Uint8Array;
}

export const sealingReady: Promise<void> = sodium.ready;

/** The key pair of a place, derived from its name: the same world has the same keys every run. */
export function sealingKeyFor(place: string): SealingKey {
  const seed = createHash("sha256").update(`forgeplan sandbox sealing key: ${place}`).digest();
  const pair = sodium.crypto_box_seed_keypair(seed);
  const digits = BigInt(
    `0x${createHash("sha256").update(pair.publicKey).digest("hex").slice(0, 15)}`,
  );
  return {
    key_id: digits.toString().padStart(18, "0").slice(-18),
    publicKey: pair.publicKey,
    privateKey: pair.privateKey,
  };
}

/** The public key as GitHub answers it: base64. */
export function publicKeyText(key: SealingKey): string {
  return sodium.to_base64(key.publicKey, sodium.base64_variants.ORIGINAL);
}

/** What a sealed box of base64 text opens to under the key, or undefined when it does not open. */
export function openSealed(encrypted: string, key: SealingKey): string | undefined {
  try {
    const box = sodium.from_base64(encrypted, sodium.base64_variants.ORIGINAL);
    return sodium.to_string(sodium.crypto_box_seal_open(box, key.publicKey, key.privateKey));
  } catch {
    return undefined;
  }
}

export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
