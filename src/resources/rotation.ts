import type { Rotation } from "../core/plan.js";

/**
 * Whether a write-only value is sent again although the service may hold it already: every one is
 * with `--rotate-secrets`; with `--rotate-secret NAME`, the ones any of `names` is (a secret's own
 * name, the environment variable its value is read from), compared case-insensitively as GitHub
 * compares secret names.
 */
export function rotates(rotation: Rotation, ...names: ReadonlyArray<string | undefined>): boolean {
  if (rotation.rotateSecrets) return true;
  const asked = new Set((rotation.rotateSecretNames ?? []).map((name) => name.toLowerCase()));
  return names.some((name) => name !== undefined && asked.has(name.toLowerCase()));
}
