import type { Account, GithubWorld, Repository } from "./records.js";

/**
 * The response shapes of the world's records, built from world objects. Every URL is absolute and
 * starts with the sandbox's own address (`base`), so clients can follow them.
 */

type Json = Record<string, unknown>;

export function nodeId(kind: string, id: number | string): string {
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
