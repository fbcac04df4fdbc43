/**
 * An OpenSSH public key as a deploy key is written (`ssh-ed25519 AAAA… comment`), and its identity:
 * the SHA256 fingerprint GitLab shows as `fingerprint_sha256` (`SHA256:` and the unpadded base64 of
 * the SHA-256 of the key's decoded blob, as `ssh-keygen -l` prints it). The key is read with
 * node:crypto's hash only: the blob's first field must name the key's type, which is all a plan
 * needs to tell keys apart; GitLab checks the rest when it is sent.
 */
import { createHash } from "node:crypto";

/** The key types GitLab takes for SSH keys (doc/user/ssh.md, "Supported SSH key types"). */
export const KEY_TYPES = [
  "ssh-ed25519",
  "ssh-rsa",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
] as const;

/** The blob of a key written `type base64 [comment]`, or why it is not one. */
export function keyBlob(text: string): { blob: Buffer } | { problem: string } {
  const [type, encoded] = text.trim().split(/\s+/);
  if (type === undefined || encoded === undefined)
    return { problem: "expected an OpenSSH public key: its type, the key in base64, a comment" };
  if (!(KEY_TYPES as readonly string[]).includes(type))
    return { problem: `'${type}' is not a key type GitLab takes (${KEY_TYPES.join(", ")})` };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return { problem: "the key is not base64" };
  const blob = Buffer.from(encoded, "base64");
  const length = blob.length >= 4 ? blob.readUInt32BE(0) : -1;
  if (length < 0 || blob.subarray(4, 4 + length).toString("latin1") !== type)
    return { problem: `the key's data does not start with its type '${type}'` };
  return { blob };
}

/** `SHA256:…` of a key already checked by `keyBlob`; undefined for one that is not a key. */
export function sha256Fingerprint(text: string): string | undefined {
  const read = keyBlob(text);
  if ("problem" in read) return undefined;
  return `SHA256:${createHash("sha256").update(read.blob).digest("base64").replace(/=+$/, "")}`;
}
