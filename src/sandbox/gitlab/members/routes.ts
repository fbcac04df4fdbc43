import { addMember } from "../world/joined.js";
import {
  gitlabBadParameter,
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  HttpError,
  noContent,
  parameters,
  type RequestContext,
  requireCaller,
  type Route,
} from "../http.js";
import { visibleGroup, visibleProject } from "../world/access.js";
import { accessLevelName, accessLevelOf } from "../world/access-levels.js";
import type { User } from "../world/records.js";
import { memberAnswer } from "../world/shapes.js";
import {
  applyMemberRole,
  groupRolesRoute,
  instanceRolesRoute,
  membershipRole,
} from "./member-roles.js";
import {
  directMembership,
  inheritedLevel,
  isProject,
  keepsOwner,
  levelTaken,
  roleOf,
  setExpiry,
  type Source,
} from "./records.js";

/**
 * GitLab's members writes ("Group and project members API": "Add a member to a group or project",
 * "Edit a member of a group or project", "Remove a member from a group or project";
 * lib/api/members.rb declares the group and project routes alike) and the user look-up a plan
 * checks usernames with ("Users API", "List users": `username`). Parameter types are checked
 * before a handler runs (request-parameters.ts); the model's validations answer 400 `{"message":
 * {attribute: [message]}}` (`render_validation_error!`), and a record the request names that does
 * not exist `{"message": "404 Not found"}` (lib/api/api.rb rescues ActiveRecord::RecordNotFound so).
 */

function invalid(attribute: string, message: string): HttpError {
  return new HttpError({ status: 400, body: { message: { [attribute]: [message] } } });
}

/**
 * Who may write a source's members: a project's Maintainers and Owners (`admin_project_member`), a
 * group's Owners (`admin_group_member`), an administrator (docs, "Roles and permissions": "Manage
 * project members" Maintainer, "Manage group members" Owner).
 */
function writable(ctx: RequestContext, source: Source): User {
  const caller = requireCaller(ctx);
  const minimum = isProject(source) ? "maintainer" : "owner";
  if (!ctx.world.hasRole(source, caller, minimum)) throw gitlabForbidden();
  return caller;
}

function projectSource(ctx: RequestContext): Source {
  return visibleProject(ctx);
}

function groupSource(ctx: RequestContext): Source {
  return visibleGroup(ctx, ctx.params.id);
}

/** `YEAR-MONTH-DAY` today, as GitLab compares `expires_at` ("cannot be a date in the past"). */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The expiry a request sets: undefined when not given, null when cleared ("" or null). */
function expiryOf(params: Record<string, unknown>): string | null | undefined {
  const value = params.expires_at;
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  const date = String(value).slice(0, 10);
  if (date < today()) throw invalid("expires_at", "cannot be a date in the past");
  return date;
}

/**
 * The model's checks of a level for a user in a source: a level the endpoint takes; Owner only
 * from an owner (a project's Maintainer may not grant it: "Maintainers cannot … assign the Owner
 * role", docs "Roles and permissions", 403); never below what the user inherits (Member
 * `higher_access_level_than_group`).
 */
function checkLevel(ctx: RequestContext, source: Source, user: User, caller: User, level: number) {
  if (!levelTaken(source, level, ctx.world.tier)) {
    throw invalid("access_level", "is not included in the list");
  }
  if (level === accessLevelOf("owner") && !ctx.world.hasRole(source, caller, "owner")) {
    throw gitlabForbidden();
  }
  const inherited = inheritedLevel(source, user);
  if (inherited !== undefined && inherited.level > level) {
    throw invalid(
      "access_level",
      `should be greater than or equal to ${accessLevelName(inherited.level)} inherited membership from group ${inherited.group.name}`,
    );
  }
}

/** The user a POST names, by `user_id` or `username` (exactly one: Grape's `exactly_one_of`). */
function newMember(ctx: RequestContext, params: Record<string, unknown>): User {
  const byId = params.user_id;
  const byName = params.username;
  if ((byId === undefined) === (byName === undefined)) {
    throw gitlabBadParameter(
      byId === undefined
        ? "user_id, username are missing, exactly one parameter must be provided"
        : "user_id, username are mutually exclusive",
    );
  }
  const user =
    byId !== undefined ? ctx.world.users.get(Number(byId)) : ctx.world.user(String(byName));
  if (user === undefined) throw gitlabNotFound("User Not Found");
  return user;
}

function answer(ctx: RequestContext, source: Source, user: User, status: number) {
  const found = directMembership(source, user)!;
  return { status, body: memberAnswer(ctx.world, ctx.base, found, source) };
}

function add(source: (ctx: RequestContext) => Source) {
  return (ctx: RequestContext) => {
    const found = source(ctx);
    const caller = writable(ctx, found);
    const params = parameters(ctx);
    const user = newMember(ctx, params);
    if (found.members.has(user.id)) throw gitlabError(409, "Member already exists");
    const level = Number(params.access_level);
    checkLevel(ctx, found, user, caller, level);
    const expiresAt = expiryOf(params) ?? null;
    applyMemberRole(ctx, found, user, params, level);
    // From now on: a protection may name the new member only after the member delay.
    addMember(ctx.world, found, user, roleOf(level)!);
    setExpiry(found, user, expiresAt);
    return answer(ctx, found, user, 201);
  };
}

/** The direct member a PUT or DELETE names by user id: 404 when there is none. */
function existing(ctx: RequestContext, found: Source): User {
  const user = ctx.world.users.get(Number(ctx.params.user_id));
  if (user === undefined || !found.members.has(user.id)) throw gitlabNotFound("Not found");
  return user;
}

/**
 * The last owner of a group stays: GroupMemberPolicy prevents `update_group_member` and
 * `destroy_group_member` for the group's last owner, which the API answers 403.
 */
function checkLastOwner(ctx: RequestContext, found: Source, user: User, level: number | null) {
  if (isProject(found) || found.members.get(user.id) !== "owner") return;
  if (level === accessLevelOf("owner")) return;
  if (!keepsOwner(ctx.world, found, user)) throw gitlabForbidden();
}

function edit(source: (ctx: RequestContext) => Source) {
  return (ctx: RequestContext) => {
    const found = source(ctx);
    const caller = writable(ctx, found);
    const user = existing(ctx, found);
    const params = parameters(ctx);
    const level = Number(params.access_level);
    checkLevel(ctx, found, user, caller, level);
    checkLastOwner(ctx, found, user, level);
    const expiresAt = expiryOf(params);
    applyMemberRole(ctx, found, user, params, level);
    found.members.set(user.id, roleOf(level)!);
    if (expiresAt !== undefined) setExpiry(found, user, expiresAt);
    return answer(ctx, found, user, 200);
  };
}

function remove(source: (ctx: RequestContext) => Source) {
  return (ctx: RequestContext) => {
    const found = source(ctx);
    writable(ctx, found);
    const user = existing(ctx, found);
    checkLastOwner(ctx, found, user, null);
    found.members.delete(user.id);
    setExpiry(found, user, null);
    membershipRole(found).delete(user.id);
    return noContent;
  };
}

export const membersRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/groups/:id/member_roles",
    operation: "GET /api/v4/groups/{id}/member_roles",
    handler: groupRolesRoute,
  },
  {
    method: "GET",
    pattern: "/api/v4/member_roles",
    operation: "GET /api/v4/member_roles",
    handler: instanceRolesRoute,
  },
  {
    method: "POST",
    pattern: "/api/v4/projects/:id/members",
    operation: "POST /api/v4/projects/{id}/members",
    handler: add(projectSource),
  },
  {
    method: "PUT",
    pattern: "/api/v4/projects/:id/members/:user_id",
    operation: "PUT /api/v4/projects/{id}/members/{user_id}",
    handler: edit(projectSource),
  },
  {
    method: "DELETE",
    pattern: "/api/v4/projects/:id/members/:user_id",
    operation: "DELETE /api/v4/projects/{id}/members/{user_id}",
    handler: remove(projectSource),
  },
  {
    method: "POST",
    pattern: "/api/v4/groups/:id/members",
    operation: "POST /api/v4/groups/{id}/members",
    handler: add(groupSource),
  },
  {
    method: "PUT",
    pattern: "/api/v4/groups/:id/members/:user_id",
    operation: "PUT /api/v4/groups/{id}/members/{user_id}",
    handler: edit(groupSource),
  },
  {
    method: "DELETE",
    pattern: "/api/v4/groups/:id/members/:user_id",
    operation: "DELETE /api/v4/groups/{id}/members/{user_id}",
    handler: remove(groupSource),
  },
];
