import { createHash, type KeyObject } from "node:crypto";
import type {
  ActionsStore,
  OrganizationActions,
  OrganizationSettings,
  RepositoryActions,
} from "../actions/records.js";
import { type SealingKey, sealingKeyFor } from "../actions/sealed-box.js";

/**
 * GitHub's live state: accounts, repositories and what they hold, indexed by lowercase
 * names and ids so every request is a few Map look-ups, whatever the size of the world.
 */

export type RepoPermission = "none" | "pull" | "triage" | "push" | "maintain" | "admin";
const PERMISSION_LEVEL: Record<RepoPermission, number> = {
  none: 0,
  pull: 1,
  triage: 2,
  push: 3,
  maintain: 4,
  admin: 5,
};

export interface Account {
  login: string;
  id: number;
  name: string | null;
  email: string | null;
  type: "User" | "Organization" | "Bot";
  site_admin: boolean;
  /** Set for an App installation's bot: what its installation tokens act as. */
  installation?: Installation;
  /**
   * The OAuth scopes of the user's token when it is a personal access token (classic); undefined
   * for any other token.
   */
  tokenScopes?: readonly string[];
}

/** An organization's custom repository role: a base role plus further permissions (GitHub Enterprise). */
export interface CustomRole {
  id: number;
  name: string;
  description: string | null;
  base_role: "read" | "triage" | "write" | "maintain";
  permissions: string[];
  created_at: string;
  updated_at: string;
}

/** What a grant gives on a repository: a permission level, or one of the organization's custom roles. */
export type Role = RepoPermission | CustomRole;

const BASE_ROLE_LEVEL: Record<CustomRole["base_role"], RepoPermission> = {
  read: "pull",
  triage: "triage",
  write: "push",
  maintain: "maintain",
};

/** GitHub's names of the permission levels as roles (`role_name`, invitations' `permissions`). */
export const ROLE_NAMES: Record<Exclude<RepoPermission, "none">, string> = {
  pull: "read",
  triage: "triage",
  push: "write",
  maintain: "maintain",
  admin: "admin",
};

export function roleLevel(role: Role): RepoPermission {
  return typeof role === "string" ? role : BASE_ROLE_LEVEL[role.base_role];
}

/** The role as GitHub names it: read, triage, write, maintain, admin, or the custom role's name. */
export function roleName(role: Role): string {
  if (typeof role !== "string") return role.name;
  return role === "none" ? "none" : ROLE_NAMES[role];
}

export function levelAtLeast(role: Role, needed: RepoPermission): boolean {
  return PERMISSION_LEVEL[roleLevel(role)] >= PERMISSION_LEVEL[needed];
}

/** The higher of two roles; on a tie, the first (a direct grant over what a team gives). */
export function higherRole(a: Role, b: Role): Role {
  return PERMISSION_LEVEL[roleLevel(b)] > PERMISSION_LEVEL[roleLevel(a)] ? b : a;
}

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

export interface Organization {
  account: Account;
  owners: Set<number>;
  members: Set<number>;
  basePermission: RepoPermission;
  /** Teams by lower-case slug. */
  teams: Map<string, Team>;
  /** Teams assigned the predefined security manager role: read access to every repository. */
  securityManagers: Set<number>;
  /** Custom repository roles by lower-case name. */
  customRoles: Map<string, CustomRole>;
  /** The organization's rulesets by id. */
  rulesets: Map<number, Ruleset>;
  /** Custom property definitions by lower-case name, in the order they were defined. */
  properties: Map<string, PropertyDefinition>;
  /** `PATCH /orgs/{org}`'s settings (the base permission is `basePermission`). */
  settings: OrganizationSettings;
  /** The organization's webhooks by id (ids are shared with repository hooks). */
  hooks: Map<number, Hook>;
  actions: OrganizationActions;
  /** Organization variables and secrets, each shared with some of its repositories. */
  store: ActionsStore;
}

export type PropertyValue = string | string[];

export interface PropertyDefinition {
  property_name: string;
  value_type: "string" | "single_select" | "multi_select" | "true_false" | "url";
  required: boolean;
  default_value: PropertyValue | null;
  description: string | null;
  allowed_values: string[] | null;
  values_editable_by: "org_actors" | "org_and_repo_actors";
}

export interface App {
  id: number;
  slug: string;
  name: string;
  owner: Account;
  description: string | null;
  events: string[];
  created_at: string;
  /** Verifies the App's JWTs; an App without one cannot authenticate. */
  publicKey: KeyObject | undefined;
  installations: Map<number, Installation>;
}

/** GitHub's levels; `admin` exists for a few permissions only (organization custom properties). */
export type AppPermissionLevel = "read" | "write" | "admin";

/** An App installed on one account, over all of its repositories or a selection of them. */
export interface Installation {
  id: number;
  app: App;
  account: Account;
  repositorySelection: "all" | "selected";
  /** Repository ids, when the selection is "selected". */
  repositories: Set<number>;
  /** App permission name (administration, repository_hooks, …) → level. */
  permissions: Record<string, AppPermissionLevel>;
  created_at: string;
  /** The bot account its tokens act as ("slug[bot]"). */
  bot: Account;
}

/** An installation access token: which installation, and until when (ms since the epoch). */
export interface InstallationToken {
  installation: Installation;
  expiresAt: number;
}

/**
 * A webhook's `config`, as GitHub keeps it: only the keys its webhook-config schema names (url,
 * content_type, secret, insecure_ssl). Other keys a client sends are accepted where GitHub's schema
 * is open and dropped, so no client can keep private markers there (issue #11).
 */
export const HOOK_CONFIG_KEYS = ["url", "content_type", "secret", "insecure_ssl"] as const;
export type HookConfigKey = (typeof HOOK_CONFIG_KEYS)[number];
export type HookConfig = Partial<Record<HookConfigKey, string>>;

export interface Hook {
  id: number;
  config: HookConfig;
  events: string[];
  active: boolean;
  branch_filter: string;
  authorization_header: string | undefined;
  created_at: string;
  updated_at: string;
}

export interface Invitation {
  id: number;
  invitee: Account;
  inviter: Account;
  permissions: "read" | "write" | "admin" | "triage" | "maintain";
  created_at: string;
  expired: boolean;
}

/**
 * A repository's label. Issues hold the label itself, so a rename shows on every issue that carries
 * it and a delete takes it off them (GitHub's labels are records issues refer to, not names).
 */
export interface Label {
  id: number;
  name: string;
  /** Six hex digits without `#`, as written. */
  color: string;
  description: string | null;
  /** Whether it is one of the labels GitHub gives a new repository. */
  default: boolean;
}

/** An autolink reference: GitHub keeps no update for one, only create and delete. */
export interface Autolink {
  id: number;
  key_prefix: string;
  url_template: string;
  is_alphanumeric: boolean;
  updated_at: string;
}

export type EnvironmentReviewer = { type: "User"; user: Account } | { type: "Team"; team: Team };

/** A deployment branch or tag policy of an environment (its custom deployment branch policies). */
export interface BranchPolicy {
  id: number;
  name: string;
  type: "branch" | "tag";
}

/** A deployment environment and its protection rules. */
export interface Environment {
  id: number;
  name: string;
  wait_timer: number;
  prevent_self_review: boolean;
  reviewers: EnvironmentReviewer[];
  /** null: every branch may deploy; "protected": protected branches only; "custom": `policies`. */
  branchPolicy: null | "protected" | "custom";
  policies: Map<number, BranchPolicy>;
  created_at: string;
  updated_at: string;
  /** Its variables and secrets (an environment has no Dependabot secrets). */
  store: ActionsStore;
}

export interface Branch {
  name: string;
  sha: string;
  protection: Protection | null;
}

/**
 * The members of GitHub's `security_and_analysis` a request may set (its PATCH schema), each read
 * back as `{status}`; `dependabot_security_updates` is read too, from `automated_security_fixes`.
 */
export const SECURITY_FEATURES = [
  "advanced_security",
  "code_security",
  "secret_scanning",
  "secret_scanning_push_protection",
  "secret_scanning_non_provider_patterns",
  "secret_scanning_ai_detection",
  "secret_scanning_delegated_alert_dismissal",
  "secret_scanning_delegated_bypass",
] as const;
export type SecurityFeature = (typeof SECURITY_FEATURES)[number];
export type FeatureStatus = "enabled" | "disabled";

/** A bypass reviewer of secret scanning's delegated bypass: a team or a role, by id. */
export interface BypassReviewer {
  reviewer_id: number;
  reviewer_type: "TEAM" | "ROLE";
  mode: "ALWAYS" | "EXEMPT";
}

/** The repository's own settings: what `PATCH /repos/{owner}/{repo}` and its sibling toggles set. */
export interface RepositorySettings {
  homepage: string | null;
  has_issues: boolean;
  has_projects: boolean;
  has_wiki: boolean;
  has_discussions: boolean;
  is_template: boolean;
  allow_forking: boolean;
  allow_auto_merge: boolean;
  delete_branch_on_merge: boolean;
  allow_update_branch: boolean;
  web_commit_signoff_required: boolean;
  squash_merge_commit_title: "PR_TITLE" | "COMMIT_OR_PR_TITLE";
  squash_merge_commit_message: "PR_BODY" | "COMMIT_MESSAGES" | "BLANK";
  merge_commit_title: "PR_TITLE" | "MERGE_MESSAGE";
  merge_commit_message: "PR_BODY" | "PR_TITLE" | "BLANK";
  /** Read-only to every write but the one that unarchives it (github/settings/archived.ts). */
  archived: boolean;
  topics: string[];
  security: Record<SecurityFeature, FeatureStatus>;
  bypassReviewers: BypassReviewer[];
  vulnerability_alerts: boolean;
  automated_security_fixes: boolean;
  private_vulnerability_reporting: boolean;
}

export interface Repository extends RepositorySettings {
  id: number;
  name: string;
  owner: Account;
  org: Organization | null;
  private: boolean;
  description: string | null;
  default_branch: string;
  allow_squash_merge: boolean;
  allow_rebase_merge: boolean;
  allow_merge_commit: boolean;
  created_at: string;
  updated_at: string;
  /** Direct grants by user id. */
  collaborators: Map<number, Role>;
  /** Team grants by team id. */
  teamAccess: Map<number, Role>;
  recentChecks: Map<string, number>;
  /** Git branch names are case-sensitive, unlike owner and repository names. */
  branches: Map<string, Branch>;
  hooks: Map<number, Hook>;
  invitations: Map<number, Invitation>;
  /** The repository's own rulesets by id (organization rulesets live on the organization). */
  rulesets: Map<number, Ruleset>;
  /** Explicit custom property values by lower-case property name. */
  properties: Map<string, PropertyValue>;
  actions: RepositoryActions;
  store: ActionsStore;
  /** Labels by id, in the order they were made. */
  labels: Map<number, Label>;
  autolinks: Map<number, Autolink>;
  /** Environments by lower-case name: GitHub's environment names are not case-sensitive. */
  environments: Map<string, Environment>;
}

/** What a repository holds besides its settings, each one a collection of its own. */
type RepositoryRecords = Pick<
  Repository,
  | "collaborators"
  | "teamAccess"
  | "recentChecks"
  | "branches"
  | "hooks"
  | "invitations"
  | "rulesets"
  | "properties"
  | "labels"
  | "autolinks"
  | "environments"
>;

/** A repository's records before anything is added to them. */
export function emptyRecords(): RepositoryRecords {
  return {
    collaborators: new Map(),
    teamAccess: new Map(),
    recentChecks: new Map(),
    branches: new Map(),
    hooks: new Map(),
    invitations: new Map(),
    rulesets: new Map(),
    properties: new Map(),
    labels: new Map(),
    autolinks: new Map(),
    environments: new Map(),
  };
}

export interface GistFile {
  content: string;
  language: string | null;
}

export interface Gist {
  id: string;
  owner: Account;
  public: boolean;
  description: string | null;
  files: Map<string, GistFile>;
  created_at: string;
  updated_at: string;
}

export type MigrationState = "pending" | "exporting" | "exported" | "failed";

export interface Migration {
  id: number;
  owner: Account;
  state: MigrationState;
  lock_repositories: boolean;
  exclude_metadata: boolean;
  exclude_git_data: boolean;
  exclude_attachments: boolean;
  exclude_releases: boolean;
  exclude_owner_projects: boolean;
  org_metadata_only: boolean;
  repositories: Repository[];
  created_at: string;
  updated_at: string;
}

/** Issues and their comments (drift issues and pull-request comments; pull requests share the numbers). */
export interface Issue {
  id: number;
  number: number;
  repo: Repository;
  title: string;
  body: string | null;
  state: "open" | "closed";
  state_reason: "completed" | "not_planned" | "duplicate" | "reopened" | null;
  user: Account;
  /** The repository's labels it carries (the records themselves, see Label). */
  labels: Label[];
  comments: IssueComment[];
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by: Account | null;
  /** Set when the issue is a pull request, which shares the repository's issue numbers. */
  pull?: PullRequest;
}

/** A pull request: its issue (number, title, state, comments) and the branches it merges. */
export interface PullRequest {
  id: number;
  issue: Issue;
  head: { ref: string; sha: string };
  /** The base branch, and its head commit when the pull request was opened. */
  base: { ref: string; sha: string };
  merged_at: string | null;
  merged_by: Account | null;
  /** The commit the merge made on the base branch. */
  merge_commit_sha: string | null;
}

export interface IssueComment {
  id: number;
  issue: Issue;
  body: string;
  user: Account;
  created_at: string;
  updated_at: string;
}

export function branchSha(fullName: string, branch: string): string {
  return createHash("sha1").update(`${fullName}@${branch}`).digest("hex");
}

export class GithubWorld {
  /** Users and organizations share one namespace of logins, as on GitHub. */
  readonly accounts = new Map<string, Account>();
  readonly accountsById = new Map<number, Account>();
  readonly tokens = new Map<string, Account>();
  readonly organizations = new Map<string, Organization>();
  readonly apps = new Map<string, App>();
  readonly appsById = new Map<number, App>();
  readonly installations = new Map<number, Installation>();
  /** Issued installation tokens, expired ones included until the next token is issued. */
  readonly installationTokens = new Map<string, InstallationToken>();
  readonly repositories = new Map<string, Repository>();
  /** Repositories by owner login, in seed order, for the listing endpoints. */
  readonly repositoriesByOwner = new Map<string, Repository[]>();
  /** Repositories by id, for the `/repositories/{id}/…` paths of GitHub's Link URLs. */
  readonly repositoriesById = new Map<number, Repository>();
  /**
   * Repositories by a name they had before a rename (`owner/name`, lower-case): GitHub redirects
   * requests to it while no repository takes the name again.
   */
  readonly formerNames = new Map<string, Repository>();
  readonly gists: Gist[] = [];
  readonly gistsByOwner = new Map<number, Gist[]>();
  readonly migrations = new Map<number, Migration>();
  /** Repositories held read-only by a running migration that locks them. */
  readonly lockedRepositories = new Set<number>();
  /** The key pairs secrets are sealed with, by place (made when first asked for). */
  readonly sealingKeys = new Map<string, SealingKey>();
  /** Issues by repository id, in number order (numbers start at 1 per repository). */
  readonly issues = new Map<number, Issue[]>();
  readonly issueComments = new Map<number, IssueComment>();
  readonly nextId = {
    hook: 1,
    team: 1,
    invitation: 1,
    issue: 1,
    issueComment: 1,
    ruleset: 1,
    pull: 1,
    label: 1,
    autolink: 1,
    environment: 1,
    branchPolicy: 1,
  };

  /**
   * The key pair of one place's secrets (`repository/1001/actions`, `organization/100/dependabot`,
   * `environment/1001/production`): derived from the place, so a world's keys are the same each run.
   */
  sealingKey(place: string): SealingKey {
    let found = this.sealingKeys.get(place);
    if (found === undefined) {
      found = sealingKeyFor(place);
      this.sealingKeys.set(place, found);
    }
    return found;
  }

  /** The ids of every hook, of repositories and organizations, ever made. */
  readonly hookIds = new Set<number>();

  /**
   * The id of a new hook: the next of one sequence across repositories and organizations, passing
   * over ids a seed gave (the demo world's organization hook has a high one, so repository hooks
   * created in it keep the ids they always had).
   */
  newHookId(): number {
    while (this.hookIds.has(this.nextId.hook)) this.nextId.hook++;
    const id = this.nextId.hook++;
    this.hookIds.add(id);
    return id;
  }

  account(login: string): Account | undefined {
    return this.accounts.get(login.toLowerCase());
  }

  repository(owner: string, name: string): Repository | undefined {
    return this.repositories.get(`${owner}/${name}`.toLowerCase());
  }

  addRepository(repo: Repository): void {
    this.repositories.set(`${repo.owner.login}/${repo.name}`.toLowerCase(), repo);
    this.repositoriesById.set(repo.id, repo);
    const key = repo.owner.login.toLowerCase();
    const list = this.repositoriesByOwner.get(key);
    if (list) list.push(repo);
    else this.repositoriesByOwner.set(key, [repo]);
  }

  /** The repository a name redirects to: one that had it before a rename and no one has it now. */
  renamedFrom(owner: string, name: string): Repository | undefined {
    if (this.repository(owner, name) !== undefined) return undefined;
    return this.formerNames.get(`${owner}/${name}`.toLowerCase());
  }

  /** Renames a repository; its old name redirects to it until another repository takes the name. */
  renameRepository(repo: Repository, name: string): void {
    const before = `${repo.owner.login}/${repo.name}`.toLowerCase();
    this.repositories.delete(before);
    this.formerNames.set(before, repo);
    repo.name = name;
    this.repositories.set(`${repo.owner.login}/${name}`.toLowerCase(), repo);
  }

  permission(repo: Repository, user: Account | null): RepoPermission {
    if (user === null) return repo.private ? "none" : "pull";
    // What an installation may do on a repository it covers is limited by its App permissions,
    // which the request pipeline checks per operation (installation-access.ts).
    if (user.installation !== undefined) {
      return covers(user.installation, repo) ? "admin" : repo.private ? "none" : "pull";
    }
    if (repo.owner.id === user.id || user.site_admin) return "admin";
    let best: RepoPermission = repo.private ? "none" : "pull";
    const raise = (candidate: RepoPermission | undefined) => {
      if (candidate !== undefined && PERMISSION_LEVEL[candidate] > PERMISSION_LEVEL[best]) {
        best = candidate;
      }
    };
    if (repo.org) {
      if (repo.org.owners.has(user.id)) return "admin";
      if (repo.org.members.has(user.id)) raise(repo.org.basePermission);
      const team = this.teamRole(repo, user);
      if (team !== undefined) raise(roleLevel(team));
    }
    const direct = repo.collaborators.get(user.id);
    if (direct !== undefined) raise(roleLevel(direct));
    return best;
  }

  /**
   * The highest role a user has on a repository through teams: the teams granted access and their
   * child teams ("Child teams inherit the access permissions of the parent team", GitHub's "About
   * teams"), and read access through a security manager team ("Read access on all repositories in
   * the organization", GitHub's "Managing security managers in your organization").
   */
  teamRole(repo: Repository, user: Account): Role | undefined {
    const org = repo.org;
    if (org === null) return undefined;
    let best: Role | undefined;
    for (const team of org.teams.values()) {
      if (!this.inTeam(team, user.id)) continue;
      const granted = this.teamGrant(repo, team);
      if (granted !== undefined) best = best === undefined ? granted : higherRole(best, granted);
    }
    return best;
  }

  /** What a team has on a repository: its own grant, its ancestors', or a security manager's read. */
  teamGrant(repo: Repository, team: Team): Role | undefined {
    let best: Role | undefined;
    for (let at: Team | null = team; at !== null; at = at.parent) {
      const own = repo.teamAccess.get(at.id);
      if (own !== undefined) best = best === undefined ? own : higherRole(best, own);
    }
    if (repo.org?.securityManagers.has(team.id)) {
      best = best === undefined ? "pull" : higherRole(best, "pull");
    }
    return best;
  }

  /** Whether the user is a member of the team, directly or through one of its child teams. */
  inTeam(team: Team, userId: number): boolean {
    if (team.members.has(userId)) return true;
    for (const other of team.org.teams.values()) {
      if (other.parent === team && this.inTeam(other, userId)) return true;
    }
    return false;
  }

  /**
   * The role GitHub reports for a user on a repository (a collaborator's `role_name`): "the highest
   * role assigned to the collaborator after considering all sources of grants, including: repo,
   * teams, organization, and enterprise" (GitHub's "List repository collaborators").
   */
  reportedRole(repo: Repository, user: Account): Role | undefined {
    let best: Role | undefined = repo.collaborators.get(user.id);
    const raise = (candidate: Role | undefined) => {
      if (candidate === undefined) return;
      best = best === undefined ? candidate : higherRole(best, candidate);
    };
    if (repo.org) {
      if (repo.org.owners.has(user.id)) raise("admin");
      if (repo.org.members.has(user.id) && repo.org.basePermission !== "none") {
        raise(repo.org.basePermission);
      }
      raise(this.teamRole(repo, user));
    }
    if (repo.owner.id === user.id) raise("admin");
    return best;
  }

  /**
   * Whether a caller may administer an organization: an owner, a site admin, or an installation on
   * it (whose App permissions the request pipeline checks per operation).
   */
  administers(org: Organization, user: Account): boolean {
    if (user.installation !== undefined) return user.installation.account.id === org.account.id;
    return org.owners.has(user.id) || user.site_admin;
  }

  can(repo: Repository, user: Account | null, needed: RepoPermission): boolean {
    return PERMISSION_LEVEL[this.permission(repo, user)] >= PERMISSION_LEVEL[needed];
  }

  teamCanPush(repo: Repository, team: Team): boolean {
    const access = repo.teamAccess.get(team.id);
    return access !== undefined && levelAtLeast(access, "push");
  }

  /** Whether every member of `org` can see all of its repositories, which makes listings a slice. */
  seesAllOf(org: Organization, user: Account | null): boolean {
    if (user === null) return false;
    if (org.owners.has(user.id) || user.site_admin) return true;
    return org.members.has(user.id) && org.basePermission !== "none";
  }
}

/** Whether an installation's tokens reach a repository: it is on the installation's account and selected. */
export function covers(installation: Installation, repo: Repository): boolean {
  if (repo.owner.id !== installation.account.id) return false;
  return installation.repositorySelection === "all" || installation.repositories.has(repo.id);
}

/*
 * The records of branch protections and rulesets. They live here with the rest of the world, not
 * beside their handlers (github/branch-protection/record.ts, github/rulesets/model.ts), so the world imports nothing that imports it.
 */

/** The users, teams and apps a protection names. */
export interface Principals {
  users: Account[];
  teams: Team[];
  apps: App[];
}

/** Branch protection as stored: the PUT body (spec endpoint 1) with its checks and rules applied. */
export interface Protection {
  required_status_checks: {
    strict: boolean;
    checks: { context: string; app_id: number | null }[];
  } | null;
  enforce_admins: boolean;
  required_pull_request_reviews: {
    dismiss_stale_reviews: boolean;
    require_code_owner_reviews: boolean;
    required_approving_review_count: number;
    require_last_push_approval: boolean;
    dismissal_restrictions: Principals | null;
    bypass_pull_request_allowances: Principals | null;
  } | null;
  restrictions: Principals | null;
  required_signatures: boolean;
  required_linear_history: boolean;
  allow_force_pushes: boolean;
  allow_deletions: boolean;
  block_creations: boolean;
  required_conversation_resolution: boolean;
  lock_branch: boolean;
  allow_fork_syncing: boolean;
}

export type Target = "branch" | "tag" | "push" | "repository";
export type Enforcement = "disabled" | "active" | "evaluate";
export type ActorType =
  "Integration" | "OrganizationAdmin" | "RepositoryRole" | "Team" | "DeployKey" | "User";
export type BypassMode = "always" | "pull_request" | "exempt";

export interface BypassActor {
  actor_id: number | null;
  actor_type: ActorType;
  bypass_mode: BypassMode;
}

export interface Rule {
  type: string;
  parameters?: Record<string, unknown>;
}

export interface NamePatterns {
  include: string[];
  exclude: string[];
}

export interface PropertySpec {
  name: string;
  property_values: string[];
  source: "custom" | "system";
}

export interface Conditions {
  ref_name?: NamePatterns;
  repository_name?: NamePatterns & { protected: boolean };
  repository_id?: { repository_ids: number[] };
  repository_property?: { include: PropertySpec[]; exclude: PropertySpec[] };
}

export type RulesetSource =
  { type: "Repository"; repo: Repository } | { type: "Organization"; org: Organization };

/** A ruleset as stored, from the POST/PUT bodies rulesets.ts checks as GitHub does. */
export interface Ruleset {
  id: number;
  name: string;
  target: Target;
  enforcement: Enforcement;
  source: RulesetSource;
  bypass_actors: BypassActor[];
  conditions: Conditions | null;
  rules: Rule[];
  created_at: string;
  updated_at: string;
}
