import { configShape, DEFAULT_CONTENT_TYPE, SECRET_MASK } from "./webhooks/config.js";
import {
  type Installation,
  type Account,
  type App,
  type Gist,
  type Hook,
  type Invitation,
  levelAtLeast,
  type Migration,
  type Organization,
  type Repository,
  type Role,
  type Team,
  type GithubWorld,
} from "./world/records.js";

/**
 * The response shapes of the spec, built from world objects. Every URL is absolute and starts with
 * the sandbox's own address (`base`), so clients can follow them.
 */

type Json = Record<string, unknown>;

function nodeId(kind: string, id: number | string): string {
  return Buffer.from(`${kind}:${id}`).toString("base64url");
}

export function simpleUser(base: string, account: Account): Json {
  const url = `${base}/users/${account.login}`;
  return {
    login: account.login,
    id: account.id,
    node_id: nodeId(account.type, account.id),
    avatar_url: `${base}/avatars/u/${account.id}`,
    avatar_ref_id: null,
    url,
    html_url: `${base}/${account.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: account.type,
    site_admin: account.site_admin,
    user_view_type: "public",
  };
}

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

export function app(base: string, value: App): Json {
  return {
    id: value.id,
    slug: value.slug,
    node_id: nodeId("Integration", value.id),
    owner: simpleUser(base, value.owner),
    name: value.name,
    description: value.description,
    external_url: `${base}/apps/${value.slug}/home`,
    html_url: `${base}/apps/${value.slug}`,
    created_at: value.created_at,
    updated_at: value.created_at,
    permissions: { checks: "write", contents: "read", metadata: "read" },
    events: value.events,
  };
}

function repositoryUrls(base: string, repo: Repository): Json {
  const full = `${repo.owner.login}/${repo.name}`;
  const url = `${base}/repos/${full}`;
  return {
    html_url: `${base}/${full}`,
    url,
    archive_url: `${url}/{archive_format}{/ref}`,
    assignees_url: `${url}/assignees{/user}`,
    blobs_url: `${url}/git/blobs{/sha}`,
    branches_url: `${url}/branches{/branch}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    comments_url: `${url}/comments{/number}`,
    commits_url: `${url}/commits{/sha}`,
    compare_url: `${url}/compare/{base}...{head}`,
    contents_url: `${url}/contents/{+path}`,
    contributors_url: `${url}/contributors`,
    deployments_url: `${url}/deployments`,
    downloads_url: `${url}/downloads`,
    events_url: `${url}/events`,
    forks_url: `${url}/forks`,
    git_commits_url: `${url}/git/commits{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    hooks_url: `${url}/hooks`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    issue_events_url: `${url}/issues/events{/number}`,
    issues_url: `${url}/issues{/number}`,
    keys_url: `${url}/keys{/key_id}`,
    labels_url: `${url}/labels{/name}`,
    languages_url: `${url}/languages`,
    merges_url: `${url}/merges`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    pulls_url: `${url}/pulls{/number}`,
    releases_url: `${url}/releases{/id}`,
    stargazers_url: `${url}/stargazers`,
    statuses_url: `${url}/statuses/{sha}`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    tags_url: `${url}/tags`,
    teams_url: `${url}/teams`,
    trees_url: `${url}/git/trees{/sha}`,
    git_url: `${base.replace(/^http/, "git")}/${full}.git`,
    ssh_url: `git@${new URL(base).hostname}:${full}.git`,
    clone_url: `${base}/${full}.git`,
    svn_url: `${base}/${full}`,
  };
}

function permissions(world: GithubWorld, repo: Repository, caller: Account | null): Json {
  return {
    admin: world.can(repo, caller, "admin"),
    maintain: world.can(repo, caller, "maintain"),
    push: world.can(repo, caller, "push"),
    triage: world.can(repo, caller, "triage"),
    pull: world.can(repo, caller, "pull"),
  };
}

export function minimalRepository(
  base: string,
  world: GithubWorld,
  repo: Repository,
  caller: Account | null,
): Json {
  return {
    id: repo.id,
    node_id: nodeId("Repository", repo.id),
    name: repo.name,
    full_name: `${repo.owner.login}/${repo.name}`,
    owner: simpleUser(base, repo.owner),
    private: repo.private,
    description: repo.description,
    fork: false,
    ...repositoryUrls(base, repo),
    default_branch: repo.default_branch,
    visibility: repo.private ? "private" : "public",
    archived: repo.archived,
    disabled: false,
    created_at: repo.created_at,
    updated_at: repo.updated_at,
    pushed_at: repo.updated_at,
    ...(caller ? { permissions: permissions(world, repo, caller) } : {}),
  };
}

/** The full Repository (`GET /repos/…` and the one embedded in a Migration). */
export function repository(
  base: string,
  world: GithubWorld,
  repo: Repository,
  caller: Account | null,
): Json {
  return {
    ...minimalRepository(base, world, repo, caller),
    license: {
      key: "mit",
      name: "MIT License",
      spdx_id: "MIT",
      url: `${base}/licenses/mit`,
      node_id: nodeId("License", "mit"),
    },
    forks: 0,
    forks_count: 0,
    mirror_url: null,
    homepage: repo.homepage,
    language: null,
    stargazers_count: 0,
    watchers_count: 0,
    watchers: 0,
    size: 0,
    open_issues_count: 0,
    open_issues: 0,
    is_template: repo.is_template,
    topics: repo.topics,
    has_issues: repo.has_issues,
    has_projects: repo.has_projects,
    has_wiki: repo.has_wiki,
    has_pages: false,
    has_downloads: true,
    has_discussions: repo.has_discussions,
    allow_squash_merge: repo.allow_squash_merge,
    allow_rebase_merge: repo.allow_rebase_merge,
    allow_merge_commit: repo.allow_merge_commit,
    allow_auto_merge: repo.allow_auto_merge,
    allow_update_branch: repo.allow_update_branch,
    allow_forking: repo.allow_forking,
    delete_branch_on_merge: repo.delete_branch_on_merge,
    web_commit_signoff_required: repo.web_commit_signoff_required,
  };
}

/**
 * GitHub's `security_and_analysis` as a repository's administrators read it: every member with its
 * status (`dependabot_security_updates` is Dependabot's security updates, set by their own
 * endpoint), and the delegated bypass's reviewers.
 */
function securityAndAnalysis(repo: Repository): Json {
  const members: Json = {};
  for (const [feature, status] of Object.entries(repo.security)) members[feature] = { status };
  members.dependabot_security_updates = {
    status: repo.automated_security_fixes ? "enabled" : "disabled",
  };
  members.secret_scanning_delegated_bypass_options = {
    reviewers: repo.bypassReviewers.map((reviewer) => ({ ...reviewer })),
  };
  return members;
}

/**
 * The Full Repository of `GET /repos/{owner}/{repo}`, of `PATCH` and of the creating `POST`s: the
 * Repository with its commit-message defaults, the network counts, the organization, and
 * `security_and_analysis` for a caller who administers it (GitHub shows it to administrators).
 */
export function fullRepository(
  base: string,
  world: GithubWorld,
  repo: Repository,
  caller: Account | null,
): Json {
  return {
    ...repository(base, world, repo, caller),
    squash_merge_commit_title: repo.squash_merge_commit_title,
    squash_merge_commit_message: repo.squash_merge_commit_message,
    merge_commit_title: repo.merge_commit_title,
    merge_commit_message: repo.merge_commit_message,
    network_count: 0,
    subscribers_count: 0,
    ...(repo.org ? { organization: simpleUser(base, repo.org.account) } : {}),
    ...(world.can(repo, caller, "admin")
      ? { security_and_analysis: securityAndAnalysis(repo) }
      : {}),
  };
}

export function branch(base: string, repo: Repository, name: string): Json {
  const found = repo.branches.get(name);
  const url = `${base}/repos/${repo.owner.login}/${repo.name}`;
  return {
    name,
    commit: { sha: found?.sha, url: `${url}/commits/${found?.sha}` },
    protected: found?.protection != null,
    protection_url: `${url}/branches/${encodeURIComponent(name)}/protection`,
  };
}

/**
 * GitHub's Branch With Protection (the answer of a branch rename): the branch, its head commit in
 * the Commit shape, and its protection as the branch read summarizes it.
 */
export function branchWithProtection(base: string, repo: Repository, name: string): Json {
  const found = repo.branches.get(name);
  const url = `${base}/repos/${repo.owner.login}/${repo.name}`;
  const sha = found?.sha ?? "";
  const stamp = repo.updated_at;
  const author = { name: "octo-admin", email: "octo-admin@users.noreply.example", date: stamp };
  return {
    name,
    commit: {
      sha,
      node_id: nodeId("Commit", sha),
      url: `${url}/commits/${sha}`,
      html_url: `${base}/${repo.owner.login}/${repo.name}/commit/${sha}`,
      comments_url: `${url}/commits/${sha}/comments`,
      commit: {
        author,
        committer: author,
        message: "Initial commit",
        tree: { sha, url: `${url}/git/trees/${sha}` },
        url: `${url}/git/commits/${sha}`,
        comment_count: 0,
      },
      author: null,
      committer: null,
      parents: [],
    },
    _links: {
      html: `${base}/${repo.owner.login}/${repo.name}/tree/${encodeURIComponent(name)}`,
      self: `${url}/branches/${encodeURIComponent(name)}`,
    },
    protected: found?.protection != null,
    protection: { enabled: found?.protection != null },
    protection_url: `${url}/branches/${encodeURIComponent(name)}/protection`,
  };
}

export function invitation(
  base: string,
  world: GithubWorld,
  repo: Repository,
  value: Invitation,
  caller: Account | null,
): Json {
  return {
    id: value.id,
    node_id: nodeId("RepositoryInvitation", value.id),
    repository: minimalRepository(base, world, repo, caller),
    invitee: simpleUser(base, value.invitee),
    inviter: simpleUser(base, value.inviter),
    permissions: value.permissions,
    created_at: value.created_at,
    expired: value.expired,
    url: `${base}/user/repository_invitations/${value.id}`,
    html_url: `${base}/${repo.owner.login}/${repo.name}/invitations`,
  };
}

/** The Hook read shape of docs/service-decisions.md; write-only values come back masked. */
export function hook(value: Hook): Json {
  return {
    id: value.id,
    type: "Repository",
    url: value.config.url,
    content_type: value.config.content_type ?? DEFAULT_CONTENT_TYPE,
    active: value.active,
    events: value.events,
    branch_filter: value.branch_filter,
    config: configShape(value.config),
    ...(value.authorization_header !== undefined ? { authorization_header: SECRET_MASK } : {}),
    metadata: null,
    created_at: value.created_at,
    updated_at: value.updated_at,
  };
}

/** GitHub's org-hook: its `url` is the hook's own API URL; the delivery URL is `config.url`. */
export function organizationHook(base: string, org: Organization, value: Hook): Json {
  const url = `${base}/orgs/${org.account.login}/hooks/${value.id}`;
  return {
    id: value.id,
    url,
    ping_url: `${url}/pings`,
    deliveries_url: `${url}/deliveries`,
    name: "web",
    events: value.events,
    active: value.active,
    config: configShape(value.config),
    updated_at: value.updated_at,
    created_at: value.created_at,
    type: "Organization",
  };
}

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
  const { account, settings } = org;
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
  const { settings } = org;
  if (!settings.members_can_create_repositories) return "none";
  if (settings.members_can_create_public_repositories) return "all";
  return settings.members_can_create_private_repositories ? "private" : "none";
}

const LANGUAGES: Record<string, [string, string]> = {
  md: ["Markdown", "text/markdown"],
  sh: ["Shell", "application/x-sh"],
  json: ["JSON", "application/json"],
  yaml: ["YAML", "application/x-yaml"],
  yml: ["YAML", "application/x-yaml"],
  js: ["JavaScript", "application/javascript"],
  ts: ["TypeScript", "application/typescript"],
};

export function gist(base: string, value: Gist): Json {
  const url = `${base}/gists/${value.id}`;
  const files: Record<string, Json> = {};
  for (const [filename, file] of value.files) {
    const known = LANGUAGES[filename.split(".").pop() ?? ""];
    files[filename] = {
      filename,
      type: known?.[1] ?? "text/plain",
      language: file.language ?? known?.[0] ?? "Text",
      raw_url: `${base}/raw/${value.id}/${encodeURIComponent(filename)}`,
      size: Buffer.byteLength(file.content),
      encoding: "utf-8",
    };
  }
  return {
    url,
    forks_url: `${url}/forks`,
    commits_url: `${url}/commits`,
    id: value.id,
    node_id: nodeId("Gist", value.id),
    git_pull_url: `${base}/gist/${value.id}.git`,
    git_push_url: `${base}/gist/${value.id}.git`,
    html_url: `${base}/gist/${value.owner.login}/${value.id}`,
    files,
    public: value.public,
    created_at: value.created_at,
    updated_at: value.updated_at,
    description: value.description,
    comments: 0,
    comments_enabled: true,
    user: null,
    comments_url: `${url}/comments`,
    owner: simpleUser(base, value.owner),
    truncated: false,
  };
}

export function migrationUrl(base: string, value: Migration): string {
  return value.owner.type === "Organization"
    ? `${base}/orgs/${value.owner.login}/migrations/${value.id}`
    : `${base}/user/migrations/${value.id}`;
}

export function migration(
  base: string,
  world: GithubWorld,
  value: Migration,
  caller: Account,
  { withRepositories }: { withRepositories: boolean },
): Json {
  const url = migrationUrl(base, value);
  return {
    id: value.id,
    node_id: nodeId("Migration", value.id),
    owner: simpleUser(base, value.owner),
    guid: `0b989ba4-242f-11e5-81e1-${String(value.id).padStart(12, "0")}`,
    state: value.state,
    lock_repositories: value.lock_repositories,
    exclude_metadata: value.exclude_metadata,
    exclude_git_data: value.exclude_git_data,
    exclude_attachments: value.exclude_attachments,
    exclude_releases: value.exclude_releases,
    exclude_owner_projects: value.exclude_owner_projects,
    org_metadata_only: value.org_metadata_only,
    ...(withRepositories
      ? { repositories: value.repositories.map((repo) => repository(base, world, repo, caller)) }
      : {}),
    url,
    created_at: value.created_at,
    updated_at: value.updated_at,
    ...(value.state === "exported" ? { archive_url: `${url}/archive` } : {}),
  };
}

/** An App installation (`GET /app/installations/{id}`, `GET /orgs/{org}/installations`). */
export function installation(base: string, value: Installation): Record<string, unknown> {
  return {
    id: value.id,
    account: simpleUser(base, value.account),
    repository_selection: value.repositorySelection,
    access_tokens_url: `${base}/app/installations/${value.id}/access_tokens`,
    repositories_url: `${base}/installation/repositories`,
    html_url: `${base}/settings/installations/${value.id}`,
    app_id: value.app.id,
    app_slug: value.app.slug,
    target_id: value.account.id,
    target_type: value.account.type,
    permissions: value.permissions,
    events: value.app.events,
    created_at: value.created_at,
    updated_at: value.created_at,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    suspended_by: null,
    suspended_at: null,
  };
}
