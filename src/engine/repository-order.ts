import type { Change, Step } from "../core/plan.js";

/**
 * The order of the changes of one repository, whatever their kinds (issue #32): GitHub refuses
 * every write to an archived repository and redirects a renamed one's old name, so
 *
 * 1. a creation, then an unarchive, comes before anything else of the repository;
 * 2. every other change follows, kind by kind in the registry's order (within a kind deletes first,
 *    as what they remove can stand in the way of the rest);
 * 3. a rename comes after the changes that still address the repository by its current name
 *    (terraform-provider-github#2451 renamed first and failed them); the re-plan reads the new
 *    name, and GitHub redirects the old one;
 * 4. an archive comes last (terraform-provider-github#3649 and otterdog#454 archived first and
 *    then failed the rest).
 *
 * Apply sends the groups one after another; within a group, repositories run concurrently and one
 * repository's changes one after another in the order given (a kind lists a change that needs
 * another after it).
 */

const FIRST: readonly Step[] = ["create", "unarchive"];
const LAST: readonly Step[] = ["rename", "archive"];

/** The groups of changes apply sends one after another. */
export function applySteps(changes: readonly Change[], kinds: readonly string[]): Change[][] {
  const at = (step: Step) => changes.filter((change) => change.step === step);
  const unstepped = changes.filter((change) => change.step === undefined);
  const groups: Change[][] = FIRST.map(at);
  for (const kind of kinds) {
    const ofKind = unstepped.filter((change) => change.kind === kind);
    groups.push(
      ofKind.filter((change) => change.action === "delete"),
      ofKind.filter((change) => change.action !== "delete"),
    );
  }
  groups.push(...LAST.map(at));
  return groups.filter((group) => group.length > 0);
}

function sends(change: Change): boolean {
  return change.requests.length > 0 && change.error === undefined;
}

function counted(others: number): string {
  return `${others} change${others === 1 ? "" : "s"}`;
}

const NOTES: Readonly<Record<Step, (others: number) => string>> = {
  create: (others) => (others === 0 ? "created first" : `created first, before ${counted(others)}`),
  unarchive: (others) =>
    others === 0 ? "unarchive first" : `unarchive first, before ${counted(others)}`,
  rename: (others) =>
    others === 0
      ? "rename last but the archive"
      : `rename after ${counted(others)} under the current name`,
  archive: (others) => (others === 0 ? "archive last" : `archive last, after ${counted(others)}`),
};

/**
 * The plan says where each change with a step goes, so a reviewer reads the order apply keeps:
 * "archive last, after 3 changes" counts the repository's other changes that send something.
 */
export function withOrderNotes(changes: readonly Change[]): Change[] {
  const others = new Map<string, number>();
  const repository = (change: Change) => `${change.target}\u0000${change.scope.toLowerCase()}`;
  for (const change of changes) {
    if (change.step !== undefined || !sends(change)) continue;
    others.set(repository(change), (others.get(repository(change)) ?? 0) + 1);
  }
  return changes.map((change) => {
    if (change.step === undefined || !sends(change)) return change;
    const note = NOTES[change.step](others.get(repository(change)) ?? 0);
    return { ...change, notes: [...(change.notes ?? []), note] };
  });
}
