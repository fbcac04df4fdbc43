import type {
  Action,
  ApplyReport,
  Change,
  ChangeError,
  DiffEntry,
  Plan,
  PlanSummary,
} from "../core/plan.js";
import { hasChanges, OUTCOMES } from "../core/plan.js";
import { SENSITIVE } from "../core/secret.js";
import { describeFailure } from "../core/failure-text.js";
import { formatValue } from "./value.js";

/** The phrases and views every human-readable format shares, so text and markdown say the same thing. */

export const NO_CHANGES = "No changes. Live state matches the desired state.";

export function plural(count: number, one: string, many: string = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Control characters (an ANSI escape in a branch name, a newline in a message) shown as visible
 * `\uXXXX` escapes, so a name read from the service cannot drive the terminal or break a line.
 */
export function printable(text: string): string {
  // String() first: a Secret that slipped into a string field (a finding, a message) prints "(sensitive)".
  return String(text).replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export function describeError(error: ChangeError): string {
  return printable(describeFailure(error));
}

/**
 * Changes a reviewer must see: everything but no-op, any change that could not be planned, and an
 * unchanged resource with a note (e.g. a write-only secret that could not be verified).
 */
export function isShown(change: Change): boolean {
  return change.action !== "no-op" || change.error !== undefined || (change.notes?.length ?? 0) > 0;
}

/**
 * "2 to create, 3 to update, 1 to delete, 4 to report, 10 unchanged" — every count, always — and
 * ", 1 error" when changes could not be planned (they are in no other count). With the plan's
 * changes, a count some of whose changes apply will hold says how many: "8 to delete (8 held)".
 */
export function summaryCounts(
  summary: PlanSummary,
  errors = 0,
  changes: readonly Change[] = [],
): string {
  const held = (action: Action) => {
    const count = changes.filter((change) => change.action === action && change.held).length;
    return count === 0 ? "" : ` (${count} held)`;
  };
  return [
    `${summary.create} to create${held("create")}`,
    `${summary.update} to update${held("update")}`,
    `${summary.delete} to delete${held("delete")}`,
    `${summary.report} to report`,
    `${summary["no-op"]} unchanged`,
    ...(errors > 0 ? [plural(errors, "error")] : []),
  ].join(", ");
}

/** How many changes could not be planned, and what apply does with such a plan. */
export function errorCount(plan: Plan, allowPlanErrors = false): string {
  const what = `${plural(plan.errors, "change")} could not be planned`;
  if (!hasChanges(plan)) return `${what}.`;
  return allowPlanErrors
    ? `${what}: the rest is applied (--allow-plan-errors).`
    : `${what}: apply applies nothing while the plan has errors (--allow-plan-errors applies the rest).`;
}

export const ACTION_SYMBOL: Record<Action, string> = {
  create: "+",
  update: "~",
  delete: "-",
  report: "!",
  "no-op": " ",
};

export const ERROR_SYMBOL = "✗";

/** One diff entry as a reader sees it: which side is absent, both sides already formatted. */
export interface FieldView {
  shape: "added" | "removed" | "changed";
  path: string;
  before: string;
  after: string;
}

/**
 * A diff entry of a change with `action`. On a create every field is added: what the diff holds as
 * `before` (a disabled setting of an unprotected branch reads `false`) is no value of the resource,
 * which does not exist yet.
 */
export function viewEntry(entry: DiffEntry, action?: Action): FieldView {
  const shown = (value: unknown) =>
    entry.sensitive && value !== undefined ? SENSITIVE : formatValue(value);
  const before = action === "create" ? undefined : entry.before;
  const shape =
    before === undefined && entry.after !== undefined
      ? "added"
      : entry.after === undefined && before !== undefined
        ? "removed"
        : "changed";
  return {
    shape,
    path: printable(entry.path),
    before: shown(before),
    after: shown(entry.after),
  };
}

/** What a re-plan still wants to do: creates, updates, deletes and anything it could not plan. */
export function remainingChanges(plan: Plan | undefined): Change[] {
  return (plan?.changes ?? []).filter(
    (change) =>
      change.error !== undefined ||
      change.action === "create" ||
      change.action === "update" ||
      change.action === "delete",
  );
}

export function applyCounts(report: ApplyReport): string {
  return OUTCOMES.map(
    (outcome) => `${report.outcomes.filter((item) => item.outcome === outcome).length} ${outcome}`,
  ).join(", ");
}

/** What follows "Verified:": whether anything the plan held was left unapplied (held or skipped). */
export function verifiedDetail(remaining: number): string {
  return remaining === 0
    ? "re-plan shows no changes."
    : `re-plan shows no changes for what was applied; not applied: ${plural(remaining, "change")}.`;
}

/** Why apply leaves a change alone, for its block: a lock's reason, or the removal limit. */
export function heldText(change: Change): string | undefined {
  if (change.held === undefined) return undefined;
  return change.capped === undefined
    ? change.held
    : "by the removal limit (the plan's summary says why)";
}

/**
 * One line per collection (or for the whole plan) whose deletes the removal limit holds: where, how
 * many of how many, and what raises the limit.
 */
export function heldRemovalLines(plan: Plan): string[] {
  const byPlace = new Map<string, Change[]>();
  for (const change of plan.changes) {
    if (change.capped === undefined) continue;
    const place =
      change.capped.by === "plan" ? "the plan" : (change.removal?.collection ?? change.address);
    byPlace.set(place, [...(byPlace.get(place) ?? []), change]);
  }
  return [...byPlace].map(
    ([place, changes]) =>
      `Held by the removal limit: ${plural(changes.length, changes.every((c) => c.action === "delete") ? "delete" : "change")} in ${place}: ${changes[0]?.held ?? ""}; --allow-delete alone does not apply them.`,
  );
}

/** A change shown only for its notes: unchanged, planned, holding nothing back. */
function onlyNotes(change: Change): boolean {
  return change.action === "no-op" && change.error === undefined && (change.notes?.length ?? 0) > 0;
}

/**
 * The changes in their order, with unchanged resources that carry the same notes gathered into one
 * list where the first of them stood (a list of one stays a change): a no-change plan says a note
 * such as "write-only and could not be verified" once, not once per secret.
 */
export function groupUnchanged(changes: readonly Change[]): Array<Change | Change[]> {
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    if (!onlyNotes(change)) continue;
    const key = JSON.stringify(change.notes);
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  const placed = new Set<string>();
  const result: Array<Change | Change[]> = [];
  for (const change of changes) {
    const group = onlyNotes(change) ? groups.get(JSON.stringify(change.notes)) : undefined;
    if (group === undefined || group.length < 2) {
      result.push(change);
      continue;
    }
    const key = JSON.stringify(change.notes);
    if (placed.has(key)) continue;
    placed.add(key);
    result.push(group);
  }
  return result;
}
