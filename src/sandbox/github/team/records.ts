import { attached } from "../../core/attached.js";
import {
  type Account,
  type GithubWorld,
  higherRole,
  levelAtLeast,
  type Organization,
  type Repository,
  type Role,
} from "../world/records.js";

/**
 * An organization's teams, their members, the repositories granted to them, and the teams given
 * the organization's security manager role.
 */

export type TeamRole = "member" | "maintainer";

export interface Team {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  org: Organization;
  privacy: "secret" | "closed";
  notification_setting: "notifications_enabled" | "notifications_disabled";
  parent: Team | null;
  /** Direct members by user id. */
  members: Map<number, TeamRole>;
  /** Memberships of people outside the organization, pending until they join it. */
  pending: Map<number, TeamRole>;
  created_at: string;
  updated_at: string;
}

/** An organization's teams by lower-case slug. */
export const teamsOf = attached((_org: Organization) => new Map<string, Team>());

/** Teams assigned the predefined security manager role: read access to every repository. */
export const securityManagersOf = attached((_org: Organization) => new Set<number>());

/** A repository's team grants by team id. */
export const teamGrantsOf = attached((_repo: Repository) => new Map<number, Role>());

/** The next id of a team made by a request. */
export const teamIds = attached((_world: GithubWorld) => ({ next: 1 }));

/** Whether the user is a member of the team, directly or through one of its child teams. */
export function inTeam(team: Team, userId: number): boolean {
  if (team.members.has(userId)) return true;
  for (const other of teamsOf(team.org).values()) {
    if (other.parent === team && inTeam(other, userId)) return true;
  }
  return false;
}

/** What a team has on a repository: its own grant, its ancestors', or a security manager's read. */
export function teamGrant(repo: Repository, team: Team): Role | undefined {
  let best: Role | undefined;
  const grants = teamGrantsOf(repo);
  for (let at: Team | null = team; at !== null; at = at.parent) {
    const own = grants.get(at.id);
    if (own !== undefined) best = best === undefined ? own : higherRole(best, own);
  }
  if (repo.org !== null && securityManagersOf(repo.org).has(team.id)) {
    best = best === undefined ? "pull" : higherRole(best, "pull");
  }
  return best;
}

/**
 * The highest role a user has on a repository through teams: the teams granted access and their
 * child teams ("Child teams inherit the access permissions of the parent team", GitHub's "About
 * teams"), and read access through a security manager team ("Read access on all repositories in
 * the organization", GitHub's "Managing security managers in your organization").
 */
export function teamRole(repo: Repository, user: Account): Role | undefined {
  const org = repo.org;
  if (org === null) return undefined;
  let best: Role | undefined;
  for (const team of teamsOf(org).values()) {
    if (!inTeam(team, user.id)) continue;
    const granted = teamGrant(repo, team);
    if (granted !== undefined) best = best === undefined ? granted : higherRole(best, granted);
  }
  return best;
}

export function teamCanPush(repo: Repository, team: Team): boolean {
  const access = teamGrantsOf(repo).get(team.id);
  return access !== undefined && levelAtLeast(access, "push");
}
