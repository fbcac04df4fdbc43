import { gitlabNotFound, type RequestContext, requireCaller } from "../http.js";
import { accessLevelOf } from "./access-levels.js";
import type { Group, Project, User } from "./records.js";

/**
 * Who sees a group or project. A private one is open to its members, and to members of any group
 * above it (inheritance); an internal one to every signed-in user; a public one to everyone
 * (docs, "Project and group visibility"). Minimal access (5) shows a group but none of its
 * projects (docs, "Roles and permissions", "Users with Minimal Access"). A caller who may not see
 * one is told it does not exist.
 */

export function canSeeGroup(ctx: RequestContext, found: Group, caller: User | null): boolean {
  if (found.visibility === "public" || (found.visibility === "internal" && caller !== null)) {
    return true;
  }
  return caller !== null && (caller.admin || ctx.world.accessLevel(found, caller) > 0);
}

export function canSeeProject(ctx: RequestContext, found: Project, caller: User | null): boolean {
  if (found.visibility === "public" || (found.visibility === "internal" && caller !== null)) {
    return true;
  }
  return (
    caller !== null &&
    (caller.admin || ctx.world.accessLevel(found, caller) >= accessLevelOf("guest"))
  );
}

export function visibleGroup(ctx: RequestContext, idOrPath: string | undefined): Group {
  const caller = requireCaller(ctx);
  const found = ctx.world.group(idOrPath ?? "");
  if (!found || !canSeeGroup(ctx, found, caller)) throw gitlabNotFound("Group Not Found");
  return found;
}

export function visibleProject(ctx: RequestContext): Project {
  const caller = requireCaller(ctx);
  const found = ctx.world.project(ctx.params.id ?? "");
  if (!found || !canSeeProject(ctx, found, caller)) throw gitlabNotFound("Project Not Found");
  return found;
}
