import { accessLevelOf } from "../world/access-levels.js";
import type { GitlabTier } from "../tiers.js";
import {
  type GitlabWorld,
  type Group,
  type Membership,
  membershipExpiry,
  type Project,
  type Role,
  type User,
} from "../world/records.js";

/**
 * The rules of GitLab's members writes over the world's records (which hold the memberships, with
 * `membershipExpiry` beside them): which levels each endpoint takes, the level inherited from the
 * groups above, and the owners a group keeps.
 */

/** A group's or a project's record: what `…/members` writes to. */
export type Source = Group | Project;

export const isProject = (source: Source): source is Project => "group" in source;

/** A role by GitLab's number; undefined for a number that names none. */
export function roleOf(level: number): Role | undefined {
  const roles: Role[] = [
    "minimal_access",
    "guest",
    "planner",
    "reporter",
    "developer",
    "maintainer",
    "owner",
  ];
  return roles.find((role) => accessLevelOf(role) === level);
}

/**
 * Whether an endpoint takes a level (the model's `access_level` inclusion): a project's members
 * guest to owner (ProjectMember's levels leave out Minimal Access); a group's also Minimal Access
 * (5), on a top-level group where the tier has it (Premium: "Users with Minimal Access", docs
 * "Roles and permissions"). No access (0) and admin (60) are no membership.
 */
export function levelTaken(source: Source, level: number, tier: GitlabTier): boolean {
  const role = roleOf(level);
  if (role === undefined) return false;
  if (role !== "minimal_access") return true;
  return !isProject(source) && source.parent === null && tier !== "free";
}

/**
 * The highest level a user holds in the groups above (a project's group and its ancestors; a
 * group's ancestors), with the group that grants it: what a direct membership may not go below.
 */
export function inheritedLevel(
  source: Source,
  user: User,
): { level: number; group: Group } | undefined {
  let best: { level: number; group: Group } | undefined;
  for (let at = isProject(source) ? source.group : source.parent; at !== null; at = at.parent) {
    const role = at.members.get(user.id);
    if (role !== undefined && (best === undefined || accessLevelOf(role) > best.level)) {
      best = { level: accessLevelOf(role), group: at };
    }
  }
  return best;
}

/**
 * Whether a group keeps an owner once `user` is removed from its direct members or demoted: an
 * owner of it or of a group above (GitLab counts inherited owners of a subgroup).
 */
export function keepsOwner(world: GitlabWorld, group: Group, user: User): boolean {
  return (
    world
      .effectiveMembers(group)
      .some((member) => member.role === "owner" && member.user.id !== user.id) ||
    (inheritedLevel(group, user)?.level ?? 0) >= accessLevelOf("owner")
  );
}

/** A direct membership as the world's answers show it. */
export function directMembership(source: Source, user: User): Membership | undefined {
  const role = source.members.get(user.id);
  if (role === undefined) return undefined;
  return {
    user,
    role,
    source: isProject(source) ? undefined : source,
    expiresAt: membershipExpiry(source).get(user.id) ?? null,
  };
}

/** Sets (or clears, with null) a direct membership's expiry. */
export function setExpiry(source: Source, user: User, expiresAt: string | null): void {
  if (expiresAt === null) membershipExpiry(source).delete(user.id);
  else membershipExpiry(source).set(user.id, expiresAt);
}
