import { createHash } from "node:crypto";
import {
  gitlabError,
  gitlabNotFound,
  gitlabPageReply,
  idParam,
  isoTime,
  ok,
  parameters,
  type RequestContext,
  requireCaller,
  type Route,
} from "../http.js";
import { listingReply } from "../issuable-listing.js";
import { noteRoutes } from "../notes/routes.js";
import { visibleProject } from "../world/access.js";
import type { Project } from "../world/records.js";
import { type MergeRequest, mergeRequestsOf } from "./records.js";
import { mergeRequest } from "./shapes.js";

/** Merge requests, their notes and the merge requests of a commit, in GitLab v4's shapes. */

function mergeRequestOf(ctx: RequestContext, owner: Project): MergeRequest {
  const iid = idParam(ctx.params.merge_request_iid ?? ctx.params.noteable);
  const found = iid === undefined ? undefined : mergeRequestsOf(owner).get(iid);
  if (found === undefined) throw gitlabNotFound("Merge Request Not Found");
  return found;
}

/** Newest first: the listings' default `order_by=created_at`, `sort=desc` (merge_requests.md). */
function newestFirst(all: Iterable<MergeRequest>): MergeRequest[] {
  return [...all].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
}

/**
 * The merge commit an accepted merge request leaves: the sandbox has no repositories, so it is a
 * digest of what identifies the merge, 40 hex digits as a commit SHA is.
 */
function commitSha(...parts: Array<string | number>): string {
  return createHash("sha1").update(parts.join("\0")).digest("hex");
}

export const mergeRequestRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/merge_requests",
    operation: "GET /api/v4/projects/{id}/merge_requests",
    handler: (ctx) => {
      const found = visibleProject(ctx);
      const { source_branch: source, target_branch: target } = parameters(ctx);
      // `state`: opened, closed, locked, merged or all (the default: every state); the filters
      // and orders an issue listing has too (issuable-listing.ts), and the branches.
      const branches = [...mergeRequestsOf(found).values()].filter(
        (item) =>
          (source === undefined || item.source_branch === source) &&
          (target === undefined || item.target_branch === target),
      );
      return listingReply(ctx, branches, (item, details) => mergeRequest(ctx.base, item, details));
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/merge_requests/:merge_request_iid",
    operation: "GET /api/v4/projects/{id}/merge_requests/{merge_request_iid}",
    handler: (ctx) => ok(mergeRequest(ctx.base, mergeRequestOf(ctx, visibleProject(ctx)))),
  },
  {
    method: "PUT",
    pattern: "/api/v4/projects/:id/merge_requests/:merge_request_iid/merge",
    operation: "PUT /api/v4/projects/{id}/merge_requests/{merge_request_iid}/merge",
    handler: (ctx) => {
      const caller = requireCaller(ctx);
      const found = visibleProject(ctx);
      const target = mergeRequestOf(ctx, found);
      // "Merge a merge request" (merge_requests.md): without the right to merge, 401; a merge
      // request that is not open cannot be merged, 405; a `sha` that is not the source branch's
      // head, 409.
      if (!ctx.world.hasRole(found, caller, "developer")) {
        throw gitlabError(401, "401 Unauthorized");
      }
      if (target.state !== "opened") throw gitlabError(405, "405 Method Not Allowed");
      const { sha, squash } = parameters(ctx);
      if (sha !== undefined && sha !== target.sha) {
        throw gitlabError(409, "SHA does not match HEAD of source branch");
      }
      const now = isoTime(ctx.now());
      const squashed = squash === true || squash === "true";
      target.squash_commit_sha = squashed
        ? commitSha("squash", found.id, target.iid, target.sha)
        : null;
      target.merge_commit_sha = commitSha("merge", found.id, target.iid, target.sha);
      target.state = "merged";
      target.merged_by = caller;
      target.merged_at = now;
      target.updated_at = now;
      return ok(mergeRequest(ctx.base, target));
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/repository/commits/:sha/merge_requests",
    operation: "GET /api/v4/projects/{id}/repository/commits/{sha}/merge_requests",
    handler: (ctx) => {
      const found = visibleProject(ctx);
      const sha = (ctx.params.sha ?? "").toLowerCase();
      // "Returns information about the merge request that originally introduced a specific
      // commit" (commits.md): the merge requests whose head, merge or squash commit it is. The
      // sandbox has no repositories, so an unknown commit lists none rather than 404 Commit Not
      // Found.
      const listed = newestFirst(mergeRequestsOf(found).values()).filter((item) =>
        [item.sha, item.merge_commit_sha, item.squash_commit_sha].includes(sha),
      );
      return gitlabPageReply(ctx, listed, (item) => mergeRequest(ctx.base, item));
    },
  },
  ...noteRoutes({
    type: "MergeRequest",
    segment: "merge_requests",
    iidName: "merge_request_iid",
    missing: "Merge Request Not Found",
    find: (ctx, iid) => mergeRequestsOf(visibleProject(ctx)).get(iid),
  }),
];
