import { type Change, newChange, type PlannedRequest } from "../core/plan.js";
import { fingerprint } from "./fingerprint.js";

/**
 * `archived_repositories: unarchive`: an archived repository or project that stays archived is
 * unarchived before the changes it has, which are then applied, and archived again after them —
 * two changes of their own in the plan, of the lifecycle kind (otterdog#735 asked for exactly
 * this). With no other change they have no requests, and the plan that verifies an apply finds
 * them unchanged. `request` is the service's write that archives or unarchives.
 */
export function aroundArchived(input: {
  target: string;
  scope: string;
  kind: string;
  others: number;
  request: (archived: boolean) => PlannedRequest;
}): [Change, Change] {
  const { target, scope, kind, others, request } = input;
  const live = fingerprint({ archived: true });
  const step = (name: string, archived: boolean, note: string): Change => {
    const change = { ...newChange(target, scope, kind, name), live_fingerprint: live };
    if (others === 0) return change;
    return {
      ...change,
      action: "update",
      diff: [{ path: "archived", before: !archived, after: archived }],
      requests: [request(archived)],
      step: archived ? "archive" : "unarchive",
      notes: [note],
    };
  };
  const changes = `${others} change${others === 1 ? "" : "s"}`;
  return [
    step(
      "unarchive",
      false,
      `archived_repositories: unarchive — unarchived for the ${changes} of ${scope}, archived again after them`,
    ),
    step(
      "rearchive",
      true,
      `archived_repositories: unarchive — archived again after the ${changes} of ${scope}`,
    ),
  ];
}
