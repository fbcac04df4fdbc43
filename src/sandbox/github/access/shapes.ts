import {
  type Account,
  type CustomRole,
  levelAtLeast,
  type Organization,
  type Role,
  roleName,
} from "../world/records.js";
import type { Team } from "../team/records.js";
import { simpleUser } from "../world/shapes.js";
import { teamSimple } from "../team/shapes.js";

type Json = Record<string, unknown>;

/** The five `permissions` flags a role amounts to. */
export function permissionFlags(role: Role): Json {
  return {
    pull: levelAtLeast(role, "pull"),
    triage: levelAtLeast(role, "triage"),
    push: levelAtLeast(role, "push"),
    maintain: levelAtLeast(role, "maintain"),
    admin: levelAtLeast(role, "admin"),
  };
}

/** A Collaborator: the user, the permissions its role amounts to, and the role's name. */
export function collaborator(base: string, user: Account, role: Role): Json {
  return {
    ...simpleUser(base, user),
    name: user.name,
    email: user.email,
    permissions: permissionFlags(role),
    role_name: roleName(role),
  };
}

/** Organization Custom Repository Role. */
export function customRole(base: string, org: Organization, role: CustomRole): Json {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    base_role: role.base_role,
    permissions: role.permissions,
    organization: simpleUser(base, org.account),
    created_at: role.created_at,
    updated_at: role.updated_at,
  };
}

/** A team assigned an organization role, as `…/organization-roles/{id}/teams` lists it. */
export function teamRoleAssignment(base: string, team: Team): Json {
  return {
    ...teamSimple(base, team),
    assignment: "direct",
    parent: team.parent === null ? null : teamSimple(base, team.parent),
  };
}
