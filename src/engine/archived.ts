import type { Change } from "../core/plan.js";
import type { ArchivedPolicy, Location } from "../resources/index.js";

/**
 * What an archived repository gets. GitHub refuses every write to it ("Repository was archived so
 * is read-only."), so changes of any kind to a repository that is archived and stays so are never
 * sent: peers archive first and then fail the rest (terraform-provider-github#3649, otterdog#454) or
 * show a perpetual diff (terraform-provider-github#153, #1793). `archived_repositories` decides:
 *
 * - `skip` (the default): each such change becomes a report, "not applied: archived", with its
 *   diff; it makes no plan exit 2 and fails a run only when asked (`--fail-on-archived`);
 * - `unarchive`: the repository is unarchived before the changes and archived again after them,
 *   each step a change of the plan (otterdog#735).
 *
 * A repository the configuration unarchives (`archived: false`) is neither: its unarchive comes
 * first and the rest follows.
 */
export function withArchivedPolicy(
  changes: Change[],
  input: {
    location: Location;
    policy: ArchivedPolicy["policy"];
    scope: string;
    around: (others: number) => [Change, Change];
  },
): Change[] {
  const { location, policy, scope } = input;
  if (location.kind !== "found" || !location.archived) return changes;
  const pending = new Set(changes.filter((change) => sends(change)));
  if ([...pending].some((change) => change.step === "unarchive")) return changes;
  if (policy === "unarchive") {
    const [unarchive, rearchive] = input.around(pending.size);
    return [unarchive, ...changes, rearchive];
  }
  return changes.map((change) => (pending.has(change) ? notApplied(change, scope) : change));
}

function sends(change: Change): boolean {
  return change.requests.length > 0 && change.error === undefined;
}

function notApplied(change: Change, scope: string): Change {
  const { requests: _requests, step: _step, gate: _gate, ...rest } = change;
  return {
    ...rest,
    action: "report",
    requests: [],
    not_applied: "archived",
    findings: [
      ...(change.findings ?? []),
      `not applied: archived — ${scope} is archived and stays so (archived_repositories: skip), so this ${change.action} is not sent`,
    ],
  };
}

/** Whether a plan holds changes that were not applied because their repository is archived. */
export function archivedNotApplied(changes: readonly Change[]): Change[] {
  return changes.filter((change) => change.not_applied === "archived");
}
