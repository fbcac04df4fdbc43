/**
 * An OpenSSH public key as GitHub takes it: `<type> <base64 blob> [comment]`, whose blob starts
 * with its type as an SSH string (RFC 4253, 6.6). GitHub answers the key without its comment.
 */

const TYPES = new Set([
  "ssh-ed25519",
  "ssh-rsa",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
]);

/** The key as GitHub stores it (`<type> <base64>`), or undefined when it is no OpenSSH public key. */
export function storedKey(text: string): string | undefined {
  const [type, blob] = text.trim().split(/\s+/);
  if (type === undefined || blob === undefined || !TYPES.has(type)) return undefined;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) return undefined;
  const bytes = Buffer.from(blob, "base64");
  if (bytes.length < 4) return undefined;
  const length = bytes.readUInt32BE(0);
  if (bytes.subarray(4, 4 + length).toString("latin1") !== type) return undefined;
  return `${type} ${blob}`;
}
