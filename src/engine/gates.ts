import type { Change, Gate } from "../core/plan.js";

/**
 * Changes applied only when told so, as deletes are with --allow-delete: a change of visibility,
 * which GitHub says cannot be taken back in effect (stars and watchers erased, forks detached, code
 * exposed), the creation of a repository or project, and a GitLab protection changed by unprotecting
 * it and protecting it again, which leaves the branch or tag open in between (a tier whose PATCH
 * cannot change it; gitlabform's unprotect-then-protect, gitlabform/gitlabform#178). The plan names the flag on each; apply skips them
 * without it and says which flag applies them.
 */
export const GATE_FLAGS: Readonly<Record<Gate, string>> = {
  visibility: "--allow-visibility",
  create: "--allow-create",
  protection_gap: "--allow-protection-gap",
};

const GATE_WORDS: Readonly<Record<Gate, string>> = {
  visibility: "a visibility change",
  create: "a creation (of a repository or project)",
  protection_gap: "a protection left open between two requests",
};

/** The note a gated change carries in the plan. */
export function gateNote(gate: Gate): string {
  return `${GATE_WORDS[gate]}: applied only with ${GATE_FLAGS[gate]}`;
}

/** Why apply skipped a gated change it was not told to apply. */
export function gateRefusal(gate: Gate): string {
  return `${GATE_WORDS[gate]} needs ${GATE_FLAGS[gate]}`;
}

/** Whether apply may carry out a change: not gated, or its gate allowed. */
export function gateOpen(change: Change, allowed: readonly Gate[]): boolean {
  return change.gate === undefined || allowed.includes(change.gate);
}

/** Every gated change of a plan names the flag that applies it. */
export function withGateNotes(changes: readonly Change[]): Change[] {
  return changes.map((change) =>
    change.gate === undefined || change.requests.length === 0
      ? change
      : { ...change, notes: [...(change.notes ?? []), gateNote(change.gate)] },
  );
}
