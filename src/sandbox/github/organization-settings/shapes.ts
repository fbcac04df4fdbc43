import type { Account, GithubWorld, Organization } from "../world/records.js";
import { nodeId } from "../world/shapes.js";
import { settingsOf } from "./records.js";

type Json = Record<string, unknown>;

/** The base permission as `default_repository_permission` names it. */
const DEFAULT_PERMISSION: Record<string, string> = {
  none: "none",
  pull: "read",
  triage: "read",
  push: "write",
  maintain: "write",
  admin: "admin",
};

/**
 * GitHub's Organization Full. Unset text reads as absent where GitHub's schema has a string (name,
 * company, blog, location, email) and null where it allows one; the settings and the counts are for
 * those who administer the organization, as on GitHub.
 */
export function organizationFull(
  base: string,
  world: GithubWorld,
  org: Organization,
  caller: Account | null,
): Json {
  const { account } = org;
  const settings = settingsOf(org);
  const url = `${base}/orgs/${account.login}`;
  const text = (key: "name" | "company" | "blog" | "location" | "email") =>
    settings[key] === null ? {} : { [key]: settings[key] };
  const repos = world.repositoriesByOwner.get(account.login.toLowerCase()) ?? [];
  const owner = caller !== null && world.administers(org, caller);
  return {
    login: account.login,
    id: account.id,
    node_id: nodeId("Organization", account.id),
    url,
    repos_url: `${url}/repos`,
    events_url: `${url}/events`,
    hooks_url: `${url}/hooks`,
    issues_url: `${url}/issues`,
    members_url: `${url}/members{/member}`,
    public_members_url: `${url}/public_members{/member}`,
    avatar_url: `${base}/avatars/u/${account.id}`,
    description: settings.description,
    ...text("name"),
    ...text("company"),
    ...text("blog"),
    ...text("location"),
    ...text("email"),
    twitter_username: settings.twitter_username,
    is_verified: false,
    has_organization_projects: settings.has_organization_projects,
    has_repository_projects: settings.has_repository_projects,
    public_repos: repos.filter((repo) => !repo.private).length,
    public_gists: 0,
    followers: 0,
    following: 0,
    html_url: `${base}/${account.login}`,
    type: "Organization",
    created_at: settings.created_at,
    updated_at: settings.updated_at,
    archived_at: null,
    ...(owner
      ? {
          total_private_repos: repos.filter((repo) => repo.private).length,
          owned_private_repos: repos.filter((repo) => repo.private).length,
          private_gists: 0,
          disk_usage: 0,
          collaborators: 0,
          billing_email: settings.billing_email,
          default_repository_permission: DEFAULT_PERMISSION[org.basePermission],
          members_can_create_repositories: settings.members_can_create_repositories,
          two_factor_requirement_enabled: false,
          members_allowed_repository_creation_type: creationType(org),
          members_can_create_public_repositories: settings.members_can_create_public_repositories,
          members_can_create_private_repositories: settings.members_can_create_private_repositories,
          members_can_create_internal_repositories:
            settings.members_can_create_internal_repositories,
          members_can_create_pages: settings.members_can_create_pages,
          members_can_create_public_pages: settings.members_can_create_public_pages,
          members_can_create_private_pages: settings.members_can_create_private_pages,
          members_can_fork_private_repositories: settings.members_can_fork_private_repositories,
          web_commit_signoff_required: settings.web_commit_signoff_required,
          deploy_keys_enabled_for_repositories: settings.deploy_keys_enabled_for_repositories,
          secret_scanning_push_protection_custom_link_enabled:
            settings.secret_scanning_push_protection_custom_link_enabled,
          secret_scanning_push_protection_custom_link:
            settings.secret_scanning_push_protection_custom_link,
        }
      : {}),
  };
}

/**
 * The closing-down `members_allowed_repository_creation_type`, as the finer settings make it ("Its
 * return value ignores internal repositories", its description in GitHub's schema).
 */
function creationType(org: Organization): string {
  const settings = settingsOf(org);
  if (!settings.members_can_create_repositories) return "none";
  if (settings.members_can_create_public_repositories) return "all";
  return settings.members_can_create_private_repositories ? "private" : "none";
}
