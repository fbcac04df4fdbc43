import type { Account, Organization, Team, TeamRole, GithubWorld } from "../world/records.js";
import { simpleUser, team } from "../shapes.js";

type Json = Record<string, unknown>;

/** Team Organization: the organization as a Full Team names it. */
function teamOrganization(base: string, org: Organization, world: GithubWorld): Json {
  const { account } = org;
  const url = `${base}/orgs/${account.login}`;
  const repos = world.repositoriesByOwner.get(account.login.toLowerCase()) ?? [];
  return {
    login: account.login,
    id: account.id,
    node_id: Buffer.from(`Organization:${account.id}`).toString("base64url"),
    url,
    repos_url: `${url}/repos`,
    events_url: `${url}/events`,
    hooks_url: `${url}/hooks`,
    issues_url: `${url}/issues`,
    members_url: `${url}/members{/member}`,
    public_members_url: `${url}/public_members{/member}`,
    avatar_url: `${base}/avatars/u/${account.id}`,
    description: null,
    name: account.name,
    html_url: `${base}/${account.login}`,
    has_organization_projects: true,
    has_repository_projects: true,
    public_repos: repos.filter((repo) => !repo.private).length,
    public_gists: 0,
    followers: 0,
    following: 0,
    type: "Organization",
    created_at: "2026-01-02T09:00:00Z",
    updated_at: "2026-01-02T09:00:00Z",
    archived_at: null,
  };
}

/** Full Team: a team with its counts and organization (`GET`, `POST`, `PATCH` of a team). */
export function teamFull(base: string, world: GithubWorld, value: Team): Json {
  const repos = world.repositoriesByOwner.get(value.org.account.login.toLowerCase()) ?? [];
  return {
    ...team(base, value),
    members_count: value.members.size,
    repos_count: repos.filter((repo) => repo.teamAccess.has(value.id)).length,
    created_at: value.created_at,
    updated_at: value.updated_at,
    organization: teamOrganization(base, value.org, world),
  };
}

/**
 * A member's role as GitHub reports it: "The `role` for organization owners is set to
 * `maintainer`" (GitHub's "Get team membership for a user").
 */
export function reportedTeamRole(value: Team, user: Account, role: TeamRole): TeamRole {
  return value.org.owners.has(user.id) ? "maintainer" : role;
}

export function membership(
  base: string,
  value: Team,
  user: Account,
  role: TeamRole,
  state: "active" | "pending",
): Json {
  return {
    url: `${base}/organizations/${value.org.account.id}/team/${value.id}/memberships/${user.login}`,
    role: reportedTeamRole(value, user, role),
    state,
  };
}

/** Team Member: a user with its role on the team and whether it is a member only by a child team. */
export function teamMember(base: string, user: Account, role: TeamRole, inherited: boolean): Json {
  return { ...simpleUser(base, user), name: user.name, email: user.email, role, inherited };
}
