import type { Gate, Plan } from "../core/plan.js";
import { archivedNotApplied } from "../engine/archived.js";
import { plural } from "../render/wording.js";

/** The gates apply is told to open: `--allow-visibility`, `--allow-create`, `--allow-protection-gap`. */
export function allowedGates(values: {
  "allow-visibility"?: boolean | undefined;
  "allow-create"?: boolean | undefined;
  "allow-protection-gap"?: boolean | undefined;
}): Gate[] {
  return [
    ...(values["allow-visibility"] === true ? (["visibility"] as const) : []),
    ...(values["allow-create"] === true ? (["create"] as const) : []),
    ...(values["allow-protection-gap"] === true ? (["protection_gap"] as const) : []),
  ];
}

/**
 * Why `--fail-on-archived` fails a run: the changes not applied because their repository is
 * archived (`archived_repositories: skip`), counted and the first named; undefined when none.
 */
export function archivedCause(plan: Plan): string | undefined {
  const skipped = archivedNotApplied(plan.changes);
  const [first] = skipped;
  if (first === undefined) return undefined;
  const more = skipped.length > 1 ? `, and ${skipped.length - 1} more` : "";
  return `${plural(skipped.length, "change")} not applied: archived (--fail-on-archived): ${first.address}${more}`;
}
