import { attached } from "../../core/attached.js";
import {
  gitlabError,
  gitlabForbidden,
  HttpError,
  type RequestContext,
  requireCaller,
} from "../http.js";
import { requireTier } from "../tiers.js";
import { visibleGroup } from "../world/access.js";
import type { GitlabWorld, Group, Project, User } from "../world/records.js";

/**
 * GitLab's custom roles (Ultimate; "Member roles API", doc/api/member_roles.md) and the custom
 * role of a membership (`member_role_id` of the members writes, `member_role` of their answers).
 * The rules are GitLab EE's MemberRoles::MemberRoleRelation: a member's level is its role's base
 * access level, a level does not change while the role stays, and the role is of the member's
 * top-level group (GitLab.com) or of the instance.
 */

/** The permissions a custom role has, as the Member roles API answers them (all listed). */
const PERMISSIONS = [
  "admin_cicd_variables",
  "admin_compliance_framework",
  "admin_group_member",
  "admin_merge_request",
  "admin_push_rules",
  "admin_terraform_state",
  "admin_vulnerability",
  "admin_web_hook",
  "archive_project",
  "manage_deploy_tokens",
  "manage_group_access_tokens",
  "manage_merge_request_settings",
  "manage_project_access_tokens",
  "manage_security_policy_link",
  "read_code",
  "read_runners",
  "read_dependency",
  "read_vulnerability",
  "remove_group",
  "remove_project",
] as const;

export const PERMISSION_NAMES: readonly string[] = PERMISSIONS;

export interface MemberRoleRecord {
  id: number;
  name: string;
  description: string | null;
  /** The top-level group it belongs to (GitLab.com); null: the instance's (self-managed). */
  group: Group | null;
  baseAccessLevel: number;
  permissions: ReadonlySet<string>;
}

/** The instance's custom roles by id, and the next id. */
export const memberRoles = attached((_world: GitlabWorld) => ({
  byId: new Map<number, MemberRoleRecord>(),
  nextId: 1,
}));

/** Each direct membership's custom role id, by user id. */
export const membershipRole = attached((_record: Group | Project) => new Map<number, number>());

export function topLevelOf(group: Group): Group {
  let at = group;
  while (at.parent !== null) at = at.parent;
  return at;
}

/** The top-level group above a group's or a project's members. */
export function topOfSource(source: Group | Project): Group {
  return topLevelOf("group" in source ? source.group : source);
}

export function roleAnswer(role: MemberRoleRecord): Record<string, unknown> {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    group_id: role.group?.id ?? null,
    base_access_level: role.baseAccessLevel,
    ...Object.fromEntries(PERMISSIONS.map((name) => [name, role.permissions.has(name)])),
  };
}

/** The `member_role` of a member's answer; none without a custom role (`expose_nil: false`). */
export function memberRoleFields(
  world: GitlabWorld,
  source: Group | Project,
  user: User,
): Record<string, unknown> {
  const id = membershipRole(source).get(user.id);
  const role = id === undefined ? undefined : memberRoles(world).byId.get(id);
  return role === undefined ? {} : { member_role: roleAnswer(role) };
}

function invalid(attribute: string, message: string): HttpError {
  return new HttpError({ status: 400, body: { message: { [attribute]: [message] } } });
}

/**
 * Applies a members write's `member_role_id` (absent: the role stays; null: none) with the
 * level it sets. Below Ultimate custom roles are not enabled and the role is dropped
 * (`set_access_level_based_on_member_role`: `self.member_role_id = nil`). A role id that names
 * none answers 500, as observed (gitlabform/gitlabform#759: "Adding a member_role_id which is not
 * present results in a 500").
 */
export function applyMemberRole(
  ctx: RequestContext,
  source: Group | Project,
  user: User,
  params: Record<string, unknown>,
  level: number,
): void {
  const roles = membershipRole(source);
  const current = roles.get(user.id);
  const given = params.member_role_id;
  if (ctx.world.tier !== "ultimate") {
    roles.delete(user.id);
    return;
  }
  if (given === undefined) {
    if (current === undefined) return;
    const kept = memberRoles(ctx.world).byId.get(current);
    if (kept !== undefined && kept.baseAccessLevel !== level) {
      throw invalid(
        "access_level",
        "cannot be changed because of an existing association with a custom role",
      );
    }
    return;
  }
  if (given === null) {
    roles.delete(user.id);
    return;
  }
  const role = memberRoles(ctx.world).byId.get(Number(given));
  if (role === undefined) throw gitlabError(500, "500 Internal Server Error");
  if (role.group !== null && role.group !== topOfSource(source)) {
    throw invalid(
      "group" in source ? "project" : "group",
      "must be in same hierarchy as custom role's namespace",
    );
  }
  if (role.baseAccessLevel !== level) {
    throw invalid(
      "member_role_id",
      "the custom role's base access level does not match the current access level",
    );
  }
  roles.set(user.id, role.id);
}

/**
 * `GET /groups/:id/member_roles`: on GitLab.com, the roles of the group's top-level group; a
 * self-managed instance answers 400 (group custom roles are deprecated there: "Group-level
 * custom roles are deprecated on self-managed instances"). Any member of the group may read them
 * (EE GroupPolicy: `rule { custom_roles_allowed & guest }.enable :read_member_role`; the docs'
 * "Owner role" prerequisite is for creating and deleting them).
 */
export function groupRolesRoute(ctx: RequestContext) {
  const group = visibleGroup(ctx, ctx.params.id);
  if (ctx.world.offering !== "com") {
    throw gitlabError(
      400,
      "400 Bad request - Group-level custom roles are deprecated on self-managed instances.",
    );
  }
  requireTier(ctx, "ultimate");
  if (!ctx.world.hasRole(group, requireCaller(ctx), "guest")) throw gitlabForbidden();
  const top = topLevelOf(group);
  return rolesPage(ctx, (role) => role.group === top);
}

/**
 * `GET /member_roles`: on a self-managed instance, its roles, for any signed-in user (EE
 * GlobalPolicy: `rule { ~anonymous & custom_roles_allowed }.enable :read_member_role`; the docs'
 * administrator prerequisite is for creating and deleting them); GitLab.com answers 400.
 */
export function instanceRolesRoute(ctx: RequestContext) {
  if (ctx.world.offering === "com") throw gitlabError(400, "400 Bad request");
  requireTier(ctx, "ultimate");
  requireCaller(ctx);
  return rolesPage(ctx, (role) => role.group === null);
}

function rolesPage(ctx: RequestContext, keep: (role: MemberRoleRecord) => boolean) {
  const listed = [...memberRoles(ctx.world).byId.values()].filter(keep);
  return { status: 200, body: listed.map(roleAnswer) };
}
