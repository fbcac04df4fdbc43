import type LibSodium from "libsodium-wrappers";
import * as z from "zod";
import { firstProblem } from "../core/zod-problem.js";
import type { ForgeClient } from "../forge/client.js";

/**
 * GitHub's Actions and Dependabot secrets are sent only encrypted: a libsodium sealed box of the
 * value under the public key of the repository, environment or organization, base64-encoded, with
 * that key's id ("Encrypting secrets for the REST API", GitHub's docs, which name libsodium).
 */

type Sodium = typeof LibSodium;
let sodiumLoaded: Promise<Sodium> | undefined;

/**
 * libsodium, loaded and started the first time a key or a value needs it: its WebAssembly start
 * would cost every run of every command some 60 ms of CPU, and only secrets need it.
 */
function readySodium(): Promise<Sodium> {
  sodiumLoaded ??= import("libsodium-wrappers").then(async ({ default: sodium }) => {
    await sodium.ready;
    return sodium;
  });
  return sodiumLoaded;
}

/** What `GET …/secrets/public-key` answers (GitHub's actions-public-key and dependabot-public-key). */
const publicKeyShape = z.looseObject({ key_id: z.string().min(1), key: z.string().min(1) });

export interface PublicKey {
  key_id: string;
  /** The 32 bytes of a Curve25519 public key. */
  key: Uint8Array;
}

/**
 * The public keys of one target, each read once per apply: every secret of a repository is sealed
 * under the key read first, and a key that cannot be read fails the changes that need it.
 */
export class PublicKeys {
  readonly #read = new Map<string, Promise<PublicKey>>();

  constructor(readonly client: ForgeClient) {}

  get(path: string): Promise<PublicKey> {
    let found = this.#read.get(path);
    if (found === undefined) {
      found = this.#fetch(path);
      this.#read.set(path, found);
    }
    return found;
  }

  async #fetch(path: string): Promise<PublicKey> {
    const data = await this.client.get<unknown>(path);
    const parsed = publicKeyShape.safeParse(data);
    if (!parsed.success) {
      throw new Error(
        `GET ${path} answered with a body that is not a public key: ${firstProblem(parsed.error)}`,
      );
    }
    const sodium = await readySodium();
    let key: Uint8Array;
    try {
      key = sodium.from_base64(parsed.data.key, sodium.base64_variants.ORIGINAL);
    } catch {
      throw new Error(`GET ${path} answered a public key that is not base64`);
    }
    if (key.length !== sodium.crypto_box_PUBLICKEYBYTES) {
      throw new Error(
        `GET ${path} answered a public key of ${key.length} bytes, not ${sodium.crypto_box_PUBLICKEYBYTES}`,
      );
    }
    return { key_id: parsed.data.key_id, key };
  }
}

/** The value sealed under the key, base64 as GitHub takes it (`encrypted_value`). */
export async function seal(value: string, key: Uint8Array): Promise<string> {
  const sodium = await readySodium();
  return sodium.to_base64(sodium.crypto_box_seal(value, key), sodium.base64_variants.ORIGINAL);
}
