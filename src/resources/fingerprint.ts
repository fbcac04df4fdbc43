import { createHash } from "node:crypto";
import { isPlainObject } from "../core/plain.js";

/**
 * A short digest of a normalized live state. A saved plan records it per change; apply re-reads and
 * refuses a change whose live state no longer has the fingerprint the reviewer saw.
 */
export function fingerprint(value: unknown): string {
  return createHash("sha256").update(stableJson(value)).digest("hex").slice(0, 16);
}

export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (isPlainObject(inner)) {
      return Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)));
    }
    return inner;
  });
}
