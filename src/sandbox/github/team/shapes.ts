import {
  type Account,
  type GithubWorld,
  levelAtLeast,
  type Organization,
  type Role,
} from "../world/records.js";
import { nodeId, simpleUser } from "../world/shapes.js";
import { type Team, teamGrantsOf, type TeamRole } from "./records.js";

type Json = Record<string, unknown>;

/** Team Simple: a team as another answer names it (a team's parent). */
export function teamSimple(base: string, value: Team): Json {
  const url = `${base}/organizations/${value.org.account.id}/team/${value.id}`;
  return {
    id: value.id,
    node_id: nodeId("Team", value.id),
    url,
    html_url: `${base}/orgs/${value.org.account.login}/teams/${value.slug}`,
    name: value.name,
    slug: value.slug,
    description: value.description,
    privacy: value.privacy,
    notification_setting: value.notification_setting,
    // The permission new repositories are added with: GitHub's default, which no route changes.
    permission: "pull",
    members_url: `${url}/members{/member}`,
    repositories_url: `${url}/repos`,
    type: "organization",
    organization_id: value.org.account.id,
  };
}

/**
 * A team, as listed by its organization or, with `onRepository`, by a repository it has access to:
 * then `permission` is its role there (GitHub's API words, or a custom role's name), with the
 * `permissions` it amounts to and where the access comes from.
 */
export function team(
  base: string,
  value: Team,
  onRepository?: { role: Role; source: "direct" | "organization" },
): Json {
  const shape: Json = {
    ...teamSimple(base, value),
    // The spec types `parent` as Team Simple; a top-level team has none, which GitHub sends as null.
    parent: value.parent === null ? null : teamSimple(base, value.parent),
  };
  if (onRepository === undefined) return shape;
  const { role, source } = onRepository;
  return {
    ...shape,
    permission: typeof role === "string" ? role : role.name,
    permissions: {
      pull: levelAtLeast(role, "pull"),
      triage: levelAtLeast(role, "triage"),
      push: levelAtLeast(role, "push"),
      maintain: levelAtLeast(role, "maintain"),
      admin: levelAtLeast(role, "admin"),
    },
    access_source: source,
  };
}

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
    repos_count: repos.filter((repo) => teamGrantsOf(repo).has(value.id)).length,
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
