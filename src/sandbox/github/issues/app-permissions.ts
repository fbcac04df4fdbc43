import { idParam } from "../http.js";
import type { PermissionRow, PermissionSet } from "../world/installation-access.js";
import { type AppPermissionLevel, covers } from "../world/records.js";
import { issuesOf } from "./records.js";

/**
 * The page lists these under both Issues and Pull requests, but GitHub takes the permission of what
 * the number is: Issues for an issue, Pull requests for a pull request ("Commenting on a PR via the
 * issues.createComment API keys its permission off the target resource, so pull-requests: write
 * covers it", ynab/ynab-sdk-ruby#95; a workflow token with Issues read is refused a pull request's
 * comments, github community discussion #210157). What the number is is looked up only in a
 * repository the installation may see (else its answer would tell a hidden issue from a pull
 * request).
 */
function byTarget(level: AppPermissionLevel): PermissionRow {
  return ({ installation, params, world }): readonly PermissionSet[] => {
    const { owner, repo: name, number, id } = params;
    const repo = world.repository(owner ?? "", name ?? "");
    if (repo === undefined || (repo.private && !covers(installation, repo))) {
      return [{ issues: level }];
    }
    const comment = issuesOf(world).comments.get(idParam(id) ?? 0);
    const issue =
      number !== undefined
        ? (issuesOf(world).byRepository.get(repo.id) ?? [])[(idParam(number) ?? 0) - 1]
        : comment?.issue.repo === repo
          ? comment.issue
          : undefined;
    return [issue?.pull !== undefined ? { pull_requests: level } : { issues: level }];
  };
}

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const issuePermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /repos/:owner/:repo/issues": [{ issues: "read" }],
  "POST /repos/:owner/:repo/issues": [{ issues: "write" }],
  "GET /repos/:owner/:repo/issues/:number": [{ issues: "read" }],
  "PATCH /repos/:owner/:repo/issues/:number": byTarget("write"),
  "GET /repos/:owner/:repo/issues/:number/comments": byTarget("read"),
  "POST /repos/:owner/:repo/issues/:number/comments": byTarget("write"),
  "GET /repos/:owner/:repo/issues/comments/:id": byTarget("read"),
  "PATCH /repos/:owner/:repo/issues/comments/:id": byTarget("write"),
  "DELETE /repos/:owner/:repo/issues/comments/:id": byTarget("write"),
  "POST /repos/:owner/:repo/pulls": [{ pull_requests: "write" }],
  "GET /repos/:owner/:repo/pulls/:number": [{ pull_requests: "read" }, { contents: "read" }],
  "PUT /repos/:owner/:repo/pulls/:number/merge": [{ contents: "write" }],
  "GET /repos/:owner/:repo/commits/:sha/pulls": [{ pull_requests: "read" }],
};
