import type { ForgeClient } from "../../forge/client.js";
import type { CiHost } from "../ci/host.js";
import type { GitlabUser } from "./api.js";
import { reportGitlabDriftIssue } from "./drift-issue.js";
import { GITLAB_NOTE_LIMIT, upsertMergeRequestNote } from "./merge-request-note.js";
import { gitlabReviewedPlan } from "./reviewed-plan.js";

/** GitLab as the CI steps' host: merge-request notes, the merge request of a commit, issues. */
export function gitlabHost(
  client: ForgeClient,
  where: { project: string; author: GitlabUser; issueLabels: readonly string[] },
): CiHost {
  const { project, author } = where;
  return {
    changeName: (iid) => `merge request !${iid}`,
    bodyLimit: GITLAB_NOTE_LIMIT,
    upsertPlanNote: (iid, marker, body) =>
      upsertMergeRequestNote(client, { project, iid }, marker, author, body),
    reviewedPlan: (sha, marker) => gitlabReviewedPlan(client, { project, sha }, marker, author),
    reportDrift: (report) =>
      reportGitlabDriftIssue(client, { project, labels: where.issueLabels, author }, report),
  };
}
