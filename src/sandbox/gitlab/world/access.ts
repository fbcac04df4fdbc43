import { gitlabNotFound, type RequestContext, requireCaller } from "../http.js";
import type { Group, Project } from "./records.js";

/**
 * Groups and projects are private: a caller without a role in the group is told it does not
 * exist.
 */

export function visibleGroup(ctx: RequestContext, idOrPath: string | undefined): Group {
  const caller = requireCaller(ctx);
  const found = ctx.world.group(idOrPath ?? "");
  if (!found || !ctx.world.hasRole(found, caller, "guest")) throw gitlabNotFound("Group Not Found");
  return found;
}

export function visibleProject(ctx: RequestContext): Project {
  const caller = requireCaller(ctx);
  const found = ctx.world.project(ctx.params.id ?? "");
  if (!found || !ctx.world.hasRole(found.group, caller, "guest")) {
    throw gitlabNotFound("Project Not Found");
  }
  return found;
}
