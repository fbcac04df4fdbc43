import { createHash } from "node:crypto";
import { attached } from "../../core/attached.js";
import type { GitlabWorld, Project, User } from "../world/records.js";

/**
 * A deploy key of the instance (doc/api/deploy_keys.md): one record per public key, shared by
 * every project it is enabled in, each link with its own `can_push` (GitLab's DeployKey and
 * DeployKeysProject). A public key is an administrator's, offered to every project.
 */
export interface DeployKey {
  id: number;
  title: string;
  key: string;
  /** MD5 of the key's blob, `aa:bb:…` (GitLab's `fingerprint`). */
  fingerprint: string;
  /** `SHA256:` and the unpadded base64 of its SHA-256 (GitLab's `fingerprint_sha256`). */
  fingerprintSha256: string;
  createdAt: string;
  expiresAt: string | null;
  public: boolean;
  /** Who added it: GitLab's DeployKey `user`. */
  user: User | null;
  /** The projects it is enabled in, in the order enabled, each with its `can_push`. */
  projects: Map<Project, boolean>;
}

/** The instance's deploy keys, in the order they were added, and the next id. */
export const deployKeysOf = attached((_world: GitlabWorld) => ({
  keys: [] as DeployKey[],
  next: 1,
}));

/** The keys enabled in a project, in the order they were enabled. */
export const keysOf = attached((_project: Project): DeployKey[] => []);

/** Enables a key in a project (or sets its `can_push` there). */
export function link(project: Project, key: DeployKey, canPush: boolean): void {
  if (!key.projects.has(project)) keysOf(project).push(key);
  key.projects.set(project, canPush);
}

/**
 * A key a project has enabled with write access, by id: what a protected branch may name
 * (`deploy_key_id`, docs "Protected branches API": the key must be enabled for the project).
 */
export function pushingKey(project: Project, id: number): DeployKey | undefined {
  return keysOf(project).find((key) => key.id === id && key.projects.get(project) === true);
}

/** Disables a key in a project. */
export function unlink(project: Project, key: DeployKey): void {
  key.projects.delete(project);
  const keys = keysOf(project);
  keys.splice(keys.indexOf(key), 1);
}

/** The key types GitLab takes (doc/user/ssh.md, "Supported SSH key types"). */
const TYPES = new Set([
  "ssh-ed25519",
  "ssh-rsa",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
]);

/**
 * A key's fingerprints as GitLab's Gitlab::SSHPublicKey computes them, or undefined for text that
 * is not an OpenSSH public key (its type, then base64 whose first field repeats the type).
 */
export function fingerprintsOf(text: string): { md5: string; sha256: string } | undefined {
  const [type, encoded] = text.trim().split(/\s+/);
  if (type === undefined || encoded === undefined || !TYPES.has(type)) return undefined;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const blob = Buffer.from(encoded, "base64");
  if (blob.length < 4) return undefined;
  const length = blob.readUInt32BE(0);
  if (blob.subarray(4, 4 + length).toString("latin1") !== type) return undefined;
  const md5 = createHash("md5").update(blob).digest("hex").match(/../g)!.join(":");
  const sha256 = `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
  return { md5, sha256 };
}
