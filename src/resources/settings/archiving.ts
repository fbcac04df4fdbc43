import type { Change } from "../../core/plan.js";
import { aroundArchived } from "../archived-around.js";
import { repoPath, type RepoRef } from "../context.js";

/** The unarchive and re-archive around an archived repository's changes: PATCHes of `archived`. */
export function around(input: {
  target: string;
  scope: string;
  at: RepoRef;
  others: number;
}): [Change, Change] {
  const path = repoPath(input.at);
  return aroundArchived({
    ...input,
    kind: "settings",
    request: (archived) => ({ method: "PATCH", path, body: { archived } }),
  });
}
