import {
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  noContent,
  ok,
  parameters,
  type RequestContext,
  requireCaller,
  type Route,
} from "../http.js";
import { canSeeGroup, visibleGroup, visibleProject } from "../world/access.js";
import type { Group, Project } from "../world/records.js";
import { group as groupShape } from "../world/shapes.js";
import { sharedWithGroups, sharesOf } from "./records.js";

/**
 * GitLab's sharing of a project or a group with a group ("Projects API", "Share a project with a
 * group" and "Delete a shared project link in a group"; "Groups API", "Share groups with groups" and
 * "Delete the link that shares a group with another group"). There is no update: a share's level
 * or expiry changes by a delete and a new share. `group_access` is checked against the values the
 * endpoints declare (`Gitlab::Access.all_values`: guest to owner) before a handler runs
 * (request-parameters.ts).
 */

/** The group a share names: one the caller can see, else GitLab's 404 "Group Not Found". */
function invited(ctx: RequestContext, id: unknown): Group {
  const found = ctx.world.groups.get(Number(id));
  if (found === undefined || !canSeeGroup(ctx, found, requireCaller(ctx))) {
    throw gitlabNotFound("Group Not Found");
  }
  return found;
}

function expiry(params: Record<string, unknown>): string | null {
  const value = params.expires_at;
  return value === undefined || value === null || value === "" ? null : String(value).slice(0, 10);
}

/** The groups a project lives in: its group and every group above (it cannot be shared with them). */
function homeGroups(project: Project): Group[] {
  const found: Group[] = [];
  for (let at: Group | null = project.group; at !== null; at = at.parent) found.push(at);
  return found;
}

export const sharesRoutes: Route[] = [
  {
    /**
     * A Maintainer shares a project (`admin_project`). GitLab refuses a group the project lives in
     * or under ("Project cannot be shared with the group it is in or one of its ancestors.") and a
     * second link to the same group (ProjectGroupLink's uniqueness), both 409. Answers the link.
     */
    method: "POST",
    pattern: "/api/v4/projects/:id/share",
    operation: "POST /api/v4/projects/{id}/share",
    handler: (ctx) => {
      const project = visibleProject(ctx);
      if (!ctx.world.hasRole(project, ctx.caller, "maintainer")) throw gitlabForbidden();
      const params = parameters(ctx);
      const group = invited(ctx, params.group_id);
      if (homeGroups(project).includes(group)) {
        throw gitlabError(
          409,
          "Project cannot be shared with the group it is in or one of its ancestors.",
        );
      }
      const shares = sharesOf(project);
      if (shares.has(group.id)) throw gitlabError(409, "Group already shared with this group");
      const share = { access: Number(params.group_access), expiresAt: expiry(params) };
      shares.set(group.id, share);
      return ok(
        {
          id: group.id * 1000 + project.id,
          project_id: project.id,
          group_id: group.id,
          group_access: share.access,
          expires_at: share.expiresAt,
        },
        201,
      );
    },
  },
  {
    method: "DELETE",
    pattern: "/api/v4/projects/:id/share/:group_id",
    operation: "DELETE /api/v4/projects/{id}/share/{group_id}",
    handler: (ctx) => {
      const project = visibleProject(ctx);
      if (!ctx.world.hasRole(project, ctx.caller, "maintainer")) throw gitlabForbidden();
      if (!sharesOf(project).delete(Number(ctx.params.group_id))) throw gitlabNotFound();
      return noContent;
    },
  },
  {
    /**
     * An Owner shares a group (`admin_group`) with a group they can see; not with itself, and once
     * per pair (409). Answers the shared group as `GET /groups/:id` shows it.
     */
    method: "POST",
    pattern: "/api/v4/groups/:id/share",
    operation: "POST /api/v4/groups/{id}/share",
    handler: (ctx) => {
      const shared = visibleGroup(ctx, ctx.params.id);
      if (!ctx.world.hasRole(shared, ctx.caller, "owner")) throw gitlabForbidden();
      const params = parameters(ctx);
      const group = invited(ctx, params.group_id);
      const shares = sharesOf(shared);
      if (group === shared || shares.has(group.id)) {
        throw gitlabError(409, "Shared group is already shared with this group");
      }
      shares.set(group.id, { access: Number(params.group_access), expiresAt: expiry(params) });
      return ok(
        {
          ...groupShape(ctx.base, shared),
          shared_with_groups: sharedWithGroups(ctx.world, shared),
        },
        201,
      );
    },
  },
  {
    method: "DELETE",
    pattern: "/api/v4/groups/:id/share/:group_id",
    operation: "DELETE /api/v4/groups/{id}/share/{group_id}",
    handler: (ctx) => {
      const shared = visibleGroup(ctx, ctx.params.id);
      if (!ctx.world.hasRole(shared, ctx.caller, "owner")) throw gitlabForbidden();
      if (!sharesOf(shared).delete(Number(ctx.params.group_id))) throw gitlabNotFound();
      return noContent;
    },
  },
];
