import type { Change, PartialPlan, Plan } from "../core/plan.js";
import { plural } from "./wording.js";

/**
 * What a plan of a configuration change (`plan --changed-from REF`) tells its reviewer beyond the
 * changes: which differences the service already had before the change, and what was left out.
 */

/** A change as the reviewer reads it: what the change makes, and what was already so before it. */
export function splitPreexisting(change: Change): { own?: Change; preexisting?: Change } {
  const before = change.diff.filter((entry) => entry.preexisting === true);
  if (before.length === 0) return { own: change };
  const rest = change.diff.filter((entry) => entry.preexisting !== true);
  if (rest.length === 0) return { preexisting: change };
  const { notes: _notes, ...quiet } = change;
  return { own: { ...change, diff: rest }, preexisting: { ...quiet, diff: before } };
}

/**
 * Changes split into the change's own and the differences the service already had; only a partial
 * plan tells the two apart (elsewhere every difference is the plan's own).
 */
export function changeViews(
  plan: Plan,
  changes: readonly Change[],
): { own: Change[]; preexisting: Change[] } {
  if (plan.partial === undefined) return { own: [...changes], preexisting: [] };
  const views = changes.map(splitPreexisting);
  return {
    own: views.flatMap((view) => (view.own ? [view.own] : [])),
    preexisting: views.flatMap((view) => (view.preexisting ? [view.preexisting] : [])),
  };
}

export const preexistingHeading = (partial: PartialPlan) =>
  `Already differs on the service, not changed since ${partial.changed_from}`;

/**
 * The lines that say what a plan covers when it is not the whole configuration: a plan of a change
 * (`--changed-from`), or of what `--target` patterns match.
 */
export function scopeNotes(plan: Plan): string[] {
  const notes = plan.partial === undefined ? [] : partialNotes(plan.partial);
  if (plan.targets !== undefined) {
    notes.push(
      `Only what --target ${plan.targets.join(", ")} matches was read and planned; plan without --target for the whole configuration.`,
    );
  }
  return notes;
}

/** How many `no_longer_managed` entries are listed before "and N more". */
const LISTED = 20;

/** The lines that say what a partial plan left out and how to see the whole plan. */
export function partialNotes(partial: PartialPlan): string[] {
  const unlisted =
    partial.unlisted.length === 0
      ? ""
      : `, and the repositories of ${partial.unlisted.join(", ")} (not listed: nothing they set changed)`;
  const lines = [
    `Left out as unchanged since ${partial.changed_from}: ${plural(partial.unchanged, "resource")}${unlisted}. ` +
      "For the whole plan, plan without --changed-from (in the Action: changed-from: none).",
  ];
  const released = partial.no_longer_managed;
  if (released.length > 0) {
    const more = released.length > LISTED ? `, and ${released.length - LISTED} more` : "";
    lines.push(
      `No longer in the configuration, left as they are on the service: ${released.slice(0, LISTED).join("; ")}${more}.`,
    );
  }
  return lines;
}
