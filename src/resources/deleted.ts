import { type Change, newChange } from "../core/plan.js";
import type { ReadResult } from "./context.js";
import { fingerprint } from "./fingerprint.js";

/**
 * A delete an apply made of something no configuration names (authoritative mode removed it), as
 * the plan that verifies it sees its place: gone from the listing (already absent, a no-op), the
 * listing's error, or — still listed — undefined, left to the change planned for it.
 */
export function deletedAt(
  change: Change,
  listed: ReadResult<{ has(key: string): boolean }>,
  key: string,
): Change | undefined {
  const gone = newChange(change.target, change.scope, change.kind, change.name);
  if (listed.kind === "error") return { ...gone, error: listed.error };
  if (listed.kind === "found" && listed.data.has(key)) return undefined;
  return { ...gone, live_fingerprint: fingerprint(null) };
}
