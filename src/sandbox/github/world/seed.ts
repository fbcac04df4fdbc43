import { createPublicKey, type KeyObject } from "node:crypto";
import * as z from "zod";
import {
  check,
  fail,
  login,
  maxOf,
  SEEDED_AT,
  type SeedPath,
  type SeedView,
  timestamp,
} from "../../core/seed.js";
import {
  type Account,
  type App,
  branchSha,
  type GithubWorld,
  type Installation,
  type Organization,
  type Repository,
  SECURITY_FEATURES,
} from "./records.js";

/**
 * The world's part of the seed format: users, organizations (their owners, members, base
 * permission and custom repository roles), Apps and their installations, and repositories with
 * their own settings and branches. Each is checked as the request that would make it is.
 */

const featureStatus = z.enum(["enabled", "disabled"]);

/**
 * A branch; `protection` is the branch protection area's (branch-protection/index.ts), which
 * checks it like a PUT of it.
 */
const branch = z.strictObject({
  name: z.string().min(1),
  protection: z
    .object({ required_signatures: z.boolean().optional() })
    .catchall(z.unknown())
    .optional(),
});

/** Where an App is installed: one account, all of its repositories or those listed, with permissions. */
const installation = z.strictObject({
  id: z.number().int().positive(),
  account: login,
  repository_selection: z.enum(["all", "selected"]).default("all"),
  /** With `selected`: the repositories (OWNER/NAME, of `account`) the installation covers. */
  repositories: z.array(z.string()).default([]),
  /** App permission → read | write | admin, e.g. { administration: write, repository_hooks: read }; metadata is always read. */
  permissions: z.record(z.string(), z.enum(["read", "write", "admin"])).default({}),
  created_at: timestamp.default(SEEDED_AT),
});

const customRole = z.strictObject({
  id: z.number().int().positive(),
  name: z.string().min(1),
  description: z.string().nullable().default(null),
  base_role: z.enum(["read", "triage", "write", "maintain"]),
  permissions: z.array(z.string()).default([]),
});

export const worldSeed = {
  users: {
    login,
    id: z.number().int().positive(),
    name: z.string().nullable().default(null),
    email: z.string().nullable().default(null),
    token: z.string().min(1).optional(),
    /** The scopes of `token` as a personal access token (classic); left out for any other kind. */
    token_scopes: z.array(z.string().min(1)).optional(),
    site_admin: z.boolean().default(false),
  },
  organizations: {
    login,
    id: z.number().int().positive(),
    name: z.string().nullable().default(null),
    owners: z.array(login).default([]),
    members: z.array(login).default([]),
    /** The permission every member has on every repository of the organization. */
    base_permission: z
      .enum(["none", "pull", "triage", "push", "maintain", "admin"])
      .default("pull"),
    custom_repository_roles: z.array(customRole).default([]),
  },
  apps: {
    id: z.number().int().positive(),
    slug: z.string().regex(/^[a-z0-9-]+$/, "expected an app slug"),
    name: z.string(),
    owner: login,
    description: z.string().nullable().default(null),
    events: z.array(z.string()).default([]),
    created_at: timestamp.default(SEEDED_AT),
    /** The public half of the App's key (PEM): JWTs signed with its private key authenticate as it. */
    public_key: z.string().optional(),
    installations: z.array(installation).default([]),
  },
  /**
   * A repository with GitHub's defaults for a new one: features on, merge options of GitHub's
   * settings page ("Default message"), security features and alerts off, not archived.
   */
  repositories: {
    full_name: z.string().regex(/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/, "expected OWNER/NAME"),
    id: z.number().int().positive().optional(),
    private: z.boolean().default(true),
    description: z.string().nullable().default(null),
    homepage: z.string().nullable().default(null),
    default_branch: z.string().default("main"),
    has_issues: z.boolean().default(true),
    has_projects: z.boolean().default(true),
    has_wiki: z.boolean().default(true),
    has_discussions: z.boolean().default(false),
    is_template: z.boolean().default(false),
    allow_forking: z.boolean().default(true),
    allow_squash_merge: z.boolean().default(true),
    allow_rebase_merge: z.boolean().default(true),
    allow_merge_commit: z.boolean().default(true),
    allow_auto_merge: z.boolean().default(false),
    delete_branch_on_merge: z.boolean().default(false),
    allow_update_branch: z.boolean().default(false),
    web_commit_signoff_required: z.boolean().default(false),
    squash_merge_commit_title: z
      .enum(["PR_TITLE", "COMMIT_OR_PR_TITLE"])
      .default("COMMIT_OR_PR_TITLE"),
    squash_merge_commit_message: z
      .enum(["PR_BODY", "COMMIT_MESSAGES", "BLANK"])
      .default("COMMIT_MESSAGES"),
    merge_commit_title: z.enum(["PR_TITLE", "MERGE_MESSAGE"]).default("MERGE_MESSAGE"),
    merge_commit_message: z.enum(["PR_BODY", "PR_TITLE", "BLANK"]).default("PR_TITLE"),
    archived: z.boolean().default(false),
    topics: z.array(z.string()).default([]),
    /** security_and_analysis members by name; those not given are disabled. */
    security_and_analysis: z.partialRecord(z.enum(SECURITY_FEATURES), featureStatus).default({}),
    vulnerability_alerts: z.boolean().default(false),
    automated_security_fixes: z.boolean().default(false),
    private_vulnerability_reporting: z.boolean().default(false),
    /** Names the repository had before renames: GitHub redirects them to it. */
    previous_names: z
      .array(z.string().regex(/^[A-Za-z0-9._-]+$/, "expected a repository name"))
      .default([]),
    created_at: timestamp.default(SEEDED_AT),
    branches: z.array(branch).min(1, "a repository needs at least one branch"),
  },
};

type WorldSeed = SeedView<typeof worldSeed>;
type RepositorySeed = WorldSeed["repositories"][number];

function addAccount(world: GithubWorld, account: Account, path: SeedPath): void {
  check(
    !world.accounts.has(account.login.toLowerCase()),
    [...path, "login"],
    `login '${account.login}' is used twice`,
  );
  check(
    !world.accountsById.has(account.id),
    [...path, "id"],
    `account id ${account.id} is used twice`,
  );
  world.accounts.set(account.login.toLowerCase(), account);
  world.accountsById.set(account.id, account);
}

function buildUsers(world: GithubWorld, seed: WorldSeed): void {
  seed.users.forEach((user, index) => {
    const account: Account = {
      login: user.login,
      id: user.id,
      name: user.name,
      email: user.email,
      type: "User",
      site_admin: user.site_admin,
      ...(user.token_scopes !== undefined ? { tokenScopes: user.token_scopes } : {}),
    };
    addAccount(world, account, ["users", index]);
    check(
      user.token_scopes === undefined || user.token !== undefined,
      ["users", index, "token_scopes"],
      "token_scopes are the scopes of the user's token: give the token too",
    );
    if (user.token !== undefined) {
      check(!world.tokens.has(user.token), ["users", index, "token"], "this token is used twice");
      world.tokens.set(user.token, account);
    }
    world.seeded.users.push(account);
  });
}

function buildOrganizations(world: GithubWorld, seed: WorldSeed): void {
  seed.organizations.forEach((orgSeed, index) => {
    const path: SeedPath = ["organizations", index];
    const account: Account = {
      login: orgSeed.login,
      id: orgSeed.id,
      name: orgSeed.name,
      email: null,
      type: "Organization",
      site_admin: false,
    };
    addAccount(world, account, path);
    const org: Organization = {
      account,
      owners: new Set(),
      members: new Set(),
      basePermission: orgSeed.base_permission,
      customRoles: new Map(),
    };
    for (const [key, logins] of [
      ["owners", orgSeed.owners],
      ["members", orgSeed.members],
    ] as const) {
      logins.forEach((name, at) => {
        const user = world.account(name);
        check(user?.type === "User", [...path, key, at], `unknown user '${name}'`);
        (key === "owners" ? org.owners : org.members).add(user.id);
      });
    }
    orgSeed.custom_repository_roles.forEach((roleSeed, at) => {
      const key = roleSeed.name.toLowerCase();
      check(
        !org.customRoles.has(key),
        [...path, "custom_repository_roles", at, "name"],
        `custom role '${roleSeed.name}' is defined twice`,
      );
      org.customRoles.set(key, { ...roleSeed, created_at: SEEDED_AT, updated_at: SEEDED_AT });
    });
    world.organizations.set(account.login.toLowerCase(), org);
    world.seeded.organizations.push(org);
  });
}

/** Bot accounts get ids far above any seeded account, as GitHub's bot users have ids of their own. */
const BOT_ID_BASE = 900_000_000;

/**
 * The bot user an installation's tokens act as: the App's `slug[bot]` (one user per App, as on
 * GitHub), one object per installation so that it knows which installation it acts for.
 */
function botOf(app: App): Account {
  return {
    login: `${app.slug}[bot]`,
    id: BOT_ID_BASE + app.id,
    name: null,
    email: null,
    type: "Bot",
    site_admin: false,
  };
}

/** The Apps of the seed; their keys are checked here, their installations once repositories exist. */
function buildApps(world: GithubWorld, seed: WorldSeed): void {
  seed.apps.forEach((appSeed, index) => {
    const owner = world.account(appSeed.owner);
    check(owner !== undefined, ["apps", index, "owner"], `unknown account '${appSeed.owner}'`);
    check(
      !world.appsById.has(appSeed.id),
      ["apps", index, "id"],
      `app id ${appSeed.id} is used twice`,
    );
    let publicKey: KeyObject | undefined;
    if (appSeed.public_key !== undefined) {
      try {
        publicKey = createPublicKey(appSeed.public_key);
      } catch {
        fail(["apps", index, "public_key"], "expected a PEM public key");
      }
      check(
        publicKey.asymmetricKeyType === "rsa",
        ["apps", index, "public_key"],
        "GitHub Apps sign with RSA keys",
      );
    }
    const { public_key: _key, installations: _installations, ...fields } = appSeed;
    const app: App = { ...fields, owner, publicKey, installations: new Map() };
    world.apps.set(appSeed.slug, app);
    world.appsById.set(appSeed.id, app);
  });
}

/** Installs every seeded App on its accounts; run after repositories are built. */
function buildInstallations(world: GithubWorld, seed: WorldSeed): void {
  seed.apps.forEach((appSeed, index) => {
    const app = world.appsById.get(appSeed.id);
    if (app === undefined) return;
    appSeed.installations.forEach((entry, at) => {
      const path = ["apps", index, "installations", at];
      check(
        !world.installations.has(entry.id),
        [...path, "id"],
        `installation id ${entry.id} is used twice`,
      );
      const account = world.account(entry.account);
      check(
        account !== undefined && account.type !== "Bot",
        [...path, "account"],
        `unknown account '${entry.account}'`,
      );
      const repositories = new Set<number>();
      entry.repositories.forEach((fullName, position) => {
        const [owner = "", name = ""] = fullName.split("/");
        const repo = world.repository(owner, name);
        check(
          repo !== undefined && repo.owner.id === account.id,
          [...path, "repositories", position],
          `'${fullName}' is not a repository of ${account.login}`,
        );
        repositories.add(repo.id);
      });
      const installed: Installation = {
        id: entry.id,
        app,
        account,
        repositorySelection: entry.repository_selection,
        repositories,
        // Every installation can read metadata (GitHub grants it to every App).
        permissions: { ...entry.permissions, metadata: entry.permissions.metadata ?? "read" },
        created_at: entry.created_at,
        bot: botOf(app),
      };
      installed.bot.installation = installed;
      app.installations.set(entry.id, installed);
      world.installations.set(entry.id, installed);
    });
  });
}

function buildRepository(world: GithubWorld, seed: RepositorySeed, path: SeedPath): Repository {
  const [ownerLogin = "", name = ""] = seed.full_name.split("/");
  const owner = world.account(ownerLogin);
  check(
    owner !== undefined,
    [...path, "full_name"],
    `owner '${ownerLogin}' is not a user or organization`,
  );
  check(
    world.repository(ownerLogin, name) === undefined,
    [...path, "full_name"],
    `repository '${seed.full_name}' is defined twice`,
  );
  const repo: Repository = {
    id: seed.id ?? 0,
    name,
    owner,
    org: world.organizations.get(ownerLogin.toLowerCase()) ?? null,
    private: seed.private,
    description: seed.description,
    homepage: seed.homepage,
    default_branch: seed.default_branch,
    has_issues: seed.has_issues,
    has_projects: seed.has_projects,
    has_wiki: seed.has_wiki,
    has_discussions: seed.has_discussions,
    is_template: seed.is_template,
    allow_forking: seed.allow_forking,
    allow_squash_merge: seed.allow_squash_merge,
    allow_rebase_merge: seed.allow_rebase_merge,
    allow_merge_commit: seed.allow_merge_commit,
    allow_auto_merge: seed.allow_auto_merge,
    delete_branch_on_merge: seed.delete_branch_on_merge,
    allow_update_branch: seed.allow_update_branch,
    web_commit_signoff_required: seed.web_commit_signoff_required,
    squash_merge_commit_title: seed.squash_merge_commit_title,
    squash_merge_commit_message: seed.squash_merge_commit_message,
    merge_commit_title: seed.merge_commit_title,
    merge_commit_message: seed.merge_commit_message,
    archived: seed.archived,
    topics: [...new Set(seed.topics)],
    security: Object.fromEntries(
      SECURITY_FEATURES.map((feature) => [
        feature,
        seed.security_and_analysis[feature] ?? "disabled",
      ]),
    ) as Repository["security"],
    bypassReviewers: [],
    vulnerability_alerts: seed.vulnerability_alerts,
    automated_security_fixes: seed.automated_security_fixes,
    private_vulnerability_reporting: seed.private_vulnerability_reporting,
    created_at: seed.created_at,
    updated_at: seed.created_at,
    branches: new Map(),
  };
  seed.branches.forEach((entry, index) => {
    check(
      !repo.branches.has(entry.name),
      [...path, "branches", index, "name"],
      `branch '${entry.name}' is defined twice`,
    );
    repo.branches.set(entry.name, {
      name: entry.name,
      sha: branchSha(seed.full_name, entry.name),
    });
  });
  check(
    repo.branches.has(seed.default_branch),
    [...path, "default_branch"],
    `default branch '${seed.default_branch}' is not among the branches`,
  );
  // GitHub's rule: "Vulnerability alerts must be enabled to configure automated security fixes."
  check(
    !seed.automated_security_fixes || seed.vulnerability_alerts,
    [...path, "automated_security_fixes"],
    "automated security fixes need vulnerability_alerts: true",
  );
  return repo;
}

function buildRepositories(world: GithubWorld, seed: WorldSeed): void {
  let nextRepoId = maxOf(seed.repositories.map((repo) => repo.id ?? 0)) + 1;
  seed.repositories.forEach((repoSeed, index) => {
    const path: SeedPath = ["repositories", index];
    const repo = buildRepository(world, repoSeed, path);
    if (repo.id === 0) repo.id = nextRepoId++;
    check(
      !world.repositoriesById.has(repo.id),
      [...path, "id"],
      `repository id ${repo.id} is used twice`,
    );
    world.addRepository(repo);
    world.seeded.repositories.push(repo);
    repoSeed.previous_names.forEach((previous, at) => {
      const former = `${repo.owner.login}/${previous}`;
      check(
        world.formerNames.get(former.toLowerCase()) === undefined,
        [...path, "previous_names", at],
        `${former} is a previous name of another repository`,
      );
      world.formerNames.set(former.toLowerCase(), repo);
    });
  });
}

/** Builds the world's records from a checked seed. */
export function buildWorld(world: GithubWorld, seed: WorldSeed): void {
  buildUsers(world, seed);
  buildOrganizations(world, seed);
  buildApps(world, seed);
  buildRepositories(world, seed);
  buildInstallations(world, seed);
}
