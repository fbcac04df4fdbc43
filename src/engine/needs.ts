import type { Change } from "../core/plan.js";

/**
 * A change may need what only another change of the same plan creates (a team granted access that
 * an `organizations` entry creates first, the registry's order applying it before). Kinds never see
 * each other's changes, so the engine checks: a change whose need this plan does not create — no
 * create at that address, or one that could not be planned — is an error, saying so, and sends
 * nothing, rather than a request that fails at apply.
 */
export function withNeedsMet(changes: readonly Change[]): Change[] {
  // Most plans have no need at all: they pass as they are, without a set of every address.
  if (!changes.some((change) => change.needs !== undefined)) return [...changes];
  const created = new Set(
    changes
      .filter((change) => change.action === "create" && change.error === undefined)
      .map((change) => change.address.toLowerCase()),
  );
  return changes.map((change) => {
    if (change.needs === undefined) return change;
    const { needs, ...rest } = change;
    if (created.has(needs.address.toLowerCase())) return rest;
    const { notes: _notes, ...unplanned } = rest;
    return { ...unplanned, action: "no-op", diff: [], requests: [], error: needs.otherwise };
  });
}
