import { createHash, type KeyObject } from "node:crypto";

/**
 * GitHub's world: accounts (users, organizations, the bots Apps act as), Apps and their
 * installations, and repositories with their own settings and branches, indexed by lowercase
 * names and ids so every request is a few Map look-ups, whatever the size of the world. What a
 * repository or organization holds besides (labels, hooks, teams …) is kept by its area.
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

const PERMISSIONS: readonly RepoPermission[] = ["pull", "triage", "push", "maintain", "admin"];

/**
 * A role as a grant names it: "`pull`, `triage`, `push`, `maintain`, `admin` and you can also
 * specify a custom repository role name, if the owning organization has defined any" (GitHub's
 * "Add a repository collaborator" and "Add or update team repository permissions"). Custom role
 * names are matched case-insensitively; undefined when the name is neither.
 */
export function resolveRole(org: Organization | null, written: string): Role | undefined {
  if ((PERMISSIONS as readonly string[]).includes(written)) return written as RepoPermission;
  return org?.customRoles.get(written.toLowerCase());
}

/** The higher of two roles; on a tie, the first (a direct grant over what a team gives). */
export function higherRole(a: Role, b: Role): Role {
  return PERMISSION_LEVEL[roleLevel(b)] > PERMISSION_LEVEL[roleLevel(a)] ? b : a;
}

export interface Organization {
  account: Account;
  owners: Set<number>;
  members: Set<number>;
  basePermission: RepoPermission;
  /** Custom repository roles by lower-case name: the roles a grant may name. */
  customRoles: Map<string, CustomRole>;
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

/**
 * A role on a repository a user has through an area's records (a collaborator's grant, a team's),
 * the repository's own rules aside; registered by the area (github/area.ts `grants`).
 */
export type Grant = (repo: Repository, user: Account) => Role | undefined;

/**
 * What areas add to the world's own rules (github/area.ts): the roles they grant, what a created
 * repository gets, and the counts an account's profile shows of their records.
 */
export interface WorldExtensions {
  grants: readonly Grant[];
  created: ReadonlyArray<
    (world: GithubWorld, repo: Repository, body?: Record<string, unknown>) => void
  >;
  profileCounts: ReadonlyArray<(world: GithubWorld, account: Account) => Record<string, number>>;
}

/** An installation access token: which installation, and until when (ms since the epoch). */
export interface InstallationToken {
  installation: Installation;
  expiresAt: number;
}

/** A branch: its name (case-sensitive, unlike owner and repository names) and head commit. */
export interface Branch {
  name: string;
  sha: string;
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
  /** Read-only to every write but the one that unarchives it (world/read-only.ts). */
  archived: boolean;
  topics: string[];
  security: Record<SecurityFeature, FeatureStatus>;
  bypassReviewers: BypassReviewer[];
  vulnerability_alerts: boolean;
  automated_security_fixes: boolean;
  private_vulnerability_reporting: boolean;
}

/**
 * A repository and its own settings (what `GET /repos/{owner}/{repo}` answers of it, which the
 * settings area edits); what it holds with endpoints of its own (labels, hooks, protections …) is
 * kept by the area of each, keyed by the repository.
 */
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
  /** Git branch names are case-sensitive, unlike owner and repository names. */
  branches: Map<string, Branch>;
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
  /**
   * Repositories held read-only by a running migration that locks them (the migrations area's
   * seed); every write to one is refused (access.ts `assertUnlocked`).
   */
  readonly lockedRepositories = new Set<number>();
  /** The records the seed's entries made, by index: areas that add to an entry find its record. */
  readonly seeded = {
    users: [] as Account[],
    organizations: [] as Organization[],
    repositories: [] as Repository[],
  };

  constructor(private readonly extensions: WorldExtensions) {}

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
    }
    for (const grant of this.extensions.grants) {
      const role = grant(repo, user);
      if (role !== undefined) raise(roleLevel(role));
    }
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

  /**
   * What every area that adds to a repository GitHub creates does (settings/create.ts), given the
   * create request's body; an area may refuse the creation by throwing its answer.
   */
  created(repo: Repository, body?: Record<string, unknown>): void {
    for (const start of this.extensions.created) start(this, repo, body);
  }

  /** What the areas count of an account's records for its profile (`public_gists` …). */
  profileCounts(account: Account): Record<string, number> {
    return Object.assign({}, ...this.extensions.profileCounts.map((count) => count(this, account)));
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
