import { createHash } from "node:crypto";
import { stableJson } from "../core/plain.js";

/**
 * A short digest of a normalized live state. A saved plan records it per change; apply re-reads and
 * refuses a change whose live state no longer has the fingerprint the reviewer saw.
 */
export function fingerprint(value: unknown): string {
  return createHash("sha256").update(stableJson(value)).digest("hex").slice(0, 16);
}
