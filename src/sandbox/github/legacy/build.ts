import { check, fail, type SeedPath, SeedProblem } from "../../core/seed.js";
import { appFromSeed, buildInstallations } from "./build-apps.js";
import { DEFAULT_CONTENT_TYPE } from "../webhooks/config.js";
import { overlappingHook } from "../webhooks/overlap.js";
import { definitionProblems, MAX_DEFINITIONS, setValues } from "../properties/definitions.js";
import { protectionFromBody } from "../branch-protection/record.js";
import { rulesetFromBody } from "../rulesets/model.js";
import { buildRepositoryRecords } from "./build-repository-records.js";
import type { LegacySeed, RepositorySeed } from "./schema.js";
import { resolveRole } from "../access/roles.js";
import {
  type ActionsStore,
  defaultPolicy,
  emptyStore,
  type StoredSecret,
  type Variable,
} from "../actions/records.js";
import { sha256 } from "../actions/sealed-box.js";
import type { GithubWorld } from "../world/records.js";
import {
  type Account,
  emptyRecords,
  branchSha,
  type Hook,
  type Organization,
  type Repository,
  SECURITY_FEATURES,
  type Role,
  type Team,
  type Ruleset,
  type RulesetSource,
} from "../world/records.js";

/** Math.max without spreading, so worlds of many thousands of repositories stay within the stack. */
function maxOf(values: Iterable<number>): number {
  let max = 0;
  for (const value of values) if (value > max) max = value;
  return max;
}

function latest(values: string[]): string {
  return values.reduce((max, value) => (value > max ? value : max));
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
  const org = world.organizations.get(ownerLogin.toLowerCase()) ?? null;
  const repo: Repository = {
    id: seed.id ?? 0,
    name,
    owner,
    org,
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
    ...emptyRecords(),
    recentChecks: new Map(Object.entries(seed.recent_checks)),
    actions: {
      enabled: seed.actions.enabled,
      ...policyFromSeed(seed.actions),
      access_level: seed.actions.access_level,
    },
    store: storeFromSeed(seed, seed.created_at),
  };
  const roleOf = (written: string, at: SeedPath): Role => {
    const role = resolveRole(org, written);
    check(
      role !== undefined,
      at,
      `'${written}' is not pull, triage, push, maintain, admin or a custom role of ${ownerLogin}`,
    );
    return role;
  };
  for (const [login, written] of Object.entries(seed.collaborators)) {
    const at = [...path, "collaborators", login];
    const user = world.account(login);
    check(user?.type === "User", at, `unknown user '${login}'`);
    repo.collaborators.set(user.id, roleOf(written, at));
  }
  for (const [slug, written] of Object.entries(seed.teams)) {
    const at = [...path, "teams", slug];
    const found = org?.teams.get(slug.toLowerCase());
    check(found !== undefined, at, `unknown team '${slug}' of ${ownerLogin}`);
    repo.teamAccess.set(found.id, roleOf(written, at));
  }
  for (const [context, appId] of repo.recentChecks) {
    check(
      world.appsById.has(appId),
      [...path, "recent_checks", context],
      `unknown app id ${appId}`,
    );
  }
  seed.branches.forEach((branch, index) => {
    check(
      !repo.branches.has(branch.name),
      [...path, "branches", index, "name"],
      `branch '${branch.name}' is defined twice`,
    );
    repo.branches.set(branch.name, {
      name: branch.name,
      sha: branchSha(seed.full_name, branch.name),
      protection: null,
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
  seed.invitations.forEach((item, index) => {
    const at = [...path, "invitations", index];
    const invitee = world.account(item.invitee);
    const inviter = world.account(item.inviter);
    check(invitee?.type === "User", [...at, "invitee"], `unknown user '${item.invitee}'`);
    check(inviter?.type === "User", [...at, "inviter"], `unknown user '${item.inviter}'`);
    repo.invitations.set(item.id, { ...item, invitee, inviter });
  });
  return repo;
}

type PolicySeed = RepositorySeed["actions"] | LegacySeed["organizations"][number]["actions"];

function policyFromSeed(seed: PolicySeed) {
  return {
    ...defaultPolicy(),
    allowed_actions: seed.allowed_actions,
    sha_pinning_required: seed.sha_pinning_required,
    selected: { ...seed.selected_actions },
    default_workflow_permissions: seed.default_workflow_permissions,
    can_approve_pull_request_reviews: seed.can_approve_pull_request_reviews,
  };
}

/** Names as GitHub keeps them: upper-cased, so they compare case-insensitively. */
function storeFromSeed(
  seed: {
    variables: Record<string, string>;
    secrets: Record<string, string>;
    dependabot_secrets: Record<string, string>;
  },
  stamp: string,
): ActionsStore {
  const store = emptyStore();
  for (const [name, value] of Object.entries(seed.variables)) {
    const upper = name.toUpperCase();
    store.variables.set(upper, { name: upper, value, created_at: stamp, updated_at: stamp });
  }
  const secret = (name: string, value: string): StoredSecret => ({
    name: name.toUpperCase(),
    created_at: stamp,
    updated_at: stamp,
    sha256: sha256(value),
  });
  for (const [name, value] of Object.entries(seed.secrets))
    store.secrets.set(name.toUpperCase(), secret(name, value));
  for (const [name, value] of Object.entries(seed.dependabot_secrets))
    store.dependabot.set(name.toUpperCase(), secret(name, value));
  return store;
}

/** The variables and secrets of the environments the repositories' records made. */
function seedEnvironmentStores(world: GithubWorld, seed: LegacySeed): void {
  for (const repoSeed of seed.repositories) {
    const [owner = "", name = ""] = repoSeed.full_name.split("/");
    const repo = world.repository(owner, name);
    for (const environment of repoSeed.environments) {
      const stored = repo?.environments.get(environment.name.toLowerCase());
      if (stored === undefined) continue;
      stored.store = storeFromSeed(
        { ...environment, dependabot_secrets: {} },
        environment.created_at,
      );
    }
  }
}

/**
 * An organization's Actions settings, variables and secrets name repositories, so they are added
 * once every repository exists.
 */
function applyOrganizationActions(world: GithubWorld, seed: LegacySeed): void {
  seed.organizations.forEach((orgSeed, index) => {
    const org = world.organizations.get(orgSeed.login.toLowerCase());
    if (org === undefined) return;
    const path: SeedPath = ["organizations", index];
    const idsOf = (names: readonly string[], at: SeedPath) =>
      new Set(
        names.map((name, position) => {
          const repo = world.repository(orgSeed.login, name);
          check(
            repo !== undefined,
            [...at, position],
            `unknown repository '${name}' of ${orgSeed.login}`,
          );
          return repo.id;
        }),
      );
    org.actions = {
      enabled_repositories: orgSeed.actions.enabled_repositories,
      selected_repositories: idsOf(orgSeed.actions.selected_repositories, [
        ...path,
        "actions",
        "selected_repositories",
      ]),
      ...policyFromSeed(orgSeed.actions),
    };
    const stamp = orgSeed.settings.created_at;
    const sharedOf = (item: (typeof orgSeed.variables)[number], at: SeedPath) => ({
      visibility: item.visibility,
      selected: idsOf(item.selected_repositories, [...at, "selected_repositories"]),
    });
    orgSeed.variables.forEach((item, at) => {
      const name = item.name.toUpperCase();
      const variable: Variable = {
        name,
        value: item.value,
        created_at: stamp,
        updated_at: stamp,
        shared: sharedOf(item, [...path, "variables", at]),
      };
      org.store.variables.set(name, variable);
    });
    for (const [key, store] of [
      ["secrets", org.store.secrets],
      ["dependabot_secrets", org.store.dependabot],
    ] as const) {
      orgSeed[key].forEach((item, at) => {
        const name = item.name.toUpperCase();
        store.set(name, {
          name,
          created_at: stamp,
          updated_at: stamp,
          sha256: sha256(item.value),
          shared: sharedOf(item, [...path, key, at]),
        });
      });
    }
  });
}

function hookFromSeed(seed: RepositorySeed["hooks"][number]): Hook {
  const created = seed.created_at ?? "2026-01-02T09:00:00Z";
  return {
    id: seed.id,
    config: { content_type: DEFAULT_CONTENT_TYPE, insecure_ssl: "0", ...seed.config },
    events: [...new Set(seed.events)],
    active: seed.active,
    branch_filter: seed.branch_filter,
    authorization_header: seed.authorization_header,
    created_at: created,
    updated_at: seed.updated_at ?? created,
  };
}

/** Protections are applied after every repository exists, with the same checks as a PUT. */
function applyProtections(world: GithubWorld, seed: LegacySeed): void {
  seed.repositories.forEach((repoSeed, repoIndex) => {
    const [owner = "", name = ""] = repoSeed.full_name.split("/");
    const repo = world.repository(owner, name);
    if (!repo) return;
    repoSeed.branches.forEach((branchSeed, branchIndex) => {
      if (!branchSeed.protection) return;
      const { required_signatures: signatures, ...body } = branchSeed.protection;
      const result = protectionFromBody(world, repo, body, signatures ?? false);
      const path = ["repositories", repoIndex, "branches", branchIndex, "protection"];
      if ("errors" in result) throw new SeedProblem(path, result.errors.join("; "));
      const branch = repo.branches.get(branchSeed.name);
      if (branch) branch.protection = result.protection;
    });
  });
}

/**
 * Rulesets are added after every repository, team and app exists (they name them by id), each with
 * the same checks as a POST.
 */
function applyRulesets(world: GithubWorld, seed: LegacySeed): void {
  const ids = new Set<number>();
  const add = (
    source: RulesetSource,
    store: Map<number, Ruleset>,
    entries: ReadonlyArray<{ id: number } & Record<string, unknown>>,
    path: SeedPath,
  ) => {
    entries.forEach(({ id, ...body }, index) => {
      const at = [...path, "rulesets", index];
      check(!ids.has(id), [...at, "id"], `ruleset id ${id} is used twice`);
      ids.add(id);
      const result = rulesetFromBody(world, source, body);
      if ("errors" in result) throw new SeedProblem(at, result.errors.join("; "));
      const stamp = "2026-01-02T09:00:00Z";
      store.set(id, { ...result.ruleset, id, created_at: stamp, updated_at: stamp });
    });
  };
  seed.organizations.forEach((orgSeed, index) => {
    const org = world.organizations.get(orgSeed.login.toLowerCase());
    if (org)
      add({ type: "Organization", org }, org.rulesets, orgSeed.rulesets, ["organizations", index]);
  });
  seed.repositories.forEach((repoSeed, index) => {
    const [owner = "", name = ""] = repoSeed.full_name.split("/");
    const repo = world.repository(owner, name);
    if (repo)
      add({ type: "Repository", repo }, repo.rulesets, repoSeed.rulesets, ["repositories", index]);
  });
  world.nextId.ruleset = maxOf(ids) + 1;
}

const SEEDED_AT = "2026-01-02T09:00:00Z";

type TeamSeed = LegacySeed["organizations"][number]["teams"][number];

/** A team of the seed: its parent defined before it, its members users of the organization. */
function buildTeam(world: GithubWorld, org: Organization, seed: TeamSeed, path: SeedPath): Team {
  const parent = seed.parent === undefined ? null : (org.teams.get(seed.parent) ?? null);
  check(
    seed.parent === undefined || parent !== null,
    [...path, "parent"],
    `parent team '${seed.parent}' is not defined before this team`,
  );
  const privacy = seed.privacy;
  check(
    privacy === "closed" || parent === null,
    [...path, "privacy"],
    "a team with a parent is closed (GitHub: the privacy of a nested team cannot be secret)",
  );
  check(
    parent === null || parent.privacy === "closed",
    [...path, "parent"],
    `parent team '${seed.parent}' is secret; a parent team is closed`,
  );
  const team: Team = {
    id: seed.id,
    slug: seed.slug,
    name: seed.name,
    description: seed.description,
    org,
    privacy,
    notification_setting: seed.notification_setting,
    parent,
    members: new Map(),
    pending: new Map(),
    created_at: SEEDED_AT,
    updated_at: SEEDED_AT,
  };
  for (const [login, role] of Object.entries(seed.members)) {
    const user = world.account(login);
    check(user?.type === "User", [...path, "members", login], `unknown user '${login}'`);
    check(
      org.owners.has(user.id) || org.members.has(user.id),
      [...path, "members", login],
      `'${login}' is not a member of ${org.account.login}`,
    );
    team.members.set(user.id, role);
  }
  if (seed.security_manager) org.securityManagers.add(seed.id);
  return team;
}

/** Builds the indexed world from a checked seed; throws SeedProblem naming the offending entry. */
export function buildLegacy(world: GithubWorld, seed: LegacySeed): void {
  const teamIds = new Set<number>();
  const addAccount = (account: Account, path: SeedPath) => {
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
  };
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
    addAccount(account, ["users", index]);
    check(
      user.token_scopes === undefined || user.token !== undefined,
      ["users", index, "token_scopes"],
      "token_scopes are the scopes of the user's token: give the token too",
    );
    if (user.token !== undefined) {
      check(!world.tokens.has(user.token), ["users", index, "token"], "this token is used twice");
      world.tokens.set(user.token, account);
    }
  });
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
    addAccount(account, path);
    const org: Organization = {
      account,
      owners: new Set(),
      members: new Set(),
      basePermission: orgSeed.base_permission,
      teams: new Map(),
      securityManagers: new Set(),
      customRoles: new Map(),
      rulesets: new Map(),
      properties: new Map(),
      settings: {
        ...orgSeed.settings,
        name: orgSeed.name,
        updated_at: orgSeed.settings.created_at,
      },
      hooks: new Map(),
      actions: {
        enabled_repositories: "all",
        selected_repositories: new Set(),
        ...defaultPolicy(),
      },
      store: emptyStore(),
    };
    for (const [key, logins] of [
      ["owners", orgSeed.owners],
      ["members", orgSeed.members],
    ] as const) {
      logins.forEach((login, at) => {
        const user = world.account(login);
        check(user?.type === "User", [...path, key, at], `unknown user '${login}'`);
        (key === "owners" ? org.owners : org.members).add(user.id);
      });
    }
    orgSeed.teams.forEach((teamSeed, at) => {
      check(
        !org.teams.has(teamSeed.slug),
        [...path, "teams", at, "slug"],
        `team '${teamSeed.slug}' is defined twice`,
      );
      check(
        !teamIds.has(teamSeed.id),
        [...path, "teams", at, "id"],
        `team id ${teamSeed.id} is used twice`,
      );
      teamIds.add(teamSeed.id);
      org.teams.set(teamSeed.slug, buildTeam(world, org, teamSeed, [...path, "teams", at]));
    });
    orgSeed.custom_repository_roles.forEach((roleSeed, at) => {
      const key = roleSeed.name.toLowerCase();
      check(
        !org.customRoles.has(key),
        [...path, "custom_repository_roles", at, "name"],
        `custom role '${roleSeed.name}' is defined twice`,
      );
      org.customRoles.set(key, { ...roleSeed, created_at: SEEDED_AT, updated_at: SEEDED_AT });
    });
    check(
      orgSeed.custom_properties.length <= MAX_DEFINITIONS,
      [...path, "custom_properties"],
      `an organization has at most ${MAX_DEFINITIONS} custom properties`,
    );
    orgSeed.custom_properties.forEach((definition, at) => {
      const where = [...path, "custom_properties", at];
      const key = definition.property_name.toLowerCase();
      check(
        !org.properties.has(key),
        where,
        `property '${definition.property_name}' is defined twice`,
      );
      const problems = definitionProblems(definition);
      check(problems.length === 0, where, problems.join("; "));
      org.properties.set(key, definition);
    });
    world.organizations.set(account.login.toLowerCase(), org);
  });
  seed.apps.forEach((appSeed, index) => {
    const owner = world.account(appSeed.owner);
    check(owner !== undefined, ["apps", index, "owner"], `unknown account '${appSeed.owner}'`);
    check(
      !world.appsById.has(appSeed.id),
      ["apps", index, "id"],
      `app id ${appSeed.id} is used twice`,
    );
    const value = appFromSeed(appSeed, owner, index, fail);
    world.apps.set(appSeed.slug, value);
    world.appsById.set(appSeed.id, value);
  });
  let nextRepoId = maxOf(seed.repositories.map((repo) => repo.id ?? 0)) + 1;
  const hookIds = new Set<number>();
  seed.organizations.forEach((orgSeed, index) => {
    const org = world.organizations.get(orgSeed.login.toLowerCase());
    orgSeed.hooks.forEach((hookSeed, at) => {
      const where = ["organizations", index, "hooks", at];
      check(!hookIds.has(hookSeed.id), [...where, "id"], `hook id ${hookSeed.id} is used twice`);
      hookIds.add(hookSeed.id);
      const built = hookFromSeed(hookSeed);
      const clash = overlappingHook(org?.hooks.values() ?? [], built);
      check(
        clash === undefined,
        where,
        `hook ${clash?.id} has the same url and an event in common ("Hook already exists on this organization")`,
      );
      org?.hooks.set(hookSeed.id, built);
    });
  });
  const invitationIds = new Set<number>();
  seed.repositories.forEach((repoSeed, index) => {
    const path: SeedPath = ["repositories", index];
    const repo = buildRepository(world, repoSeed, path);
    if (repo.id === 0) repo.id = nextRepoId++;
    check(
      !world.repositoriesById.has(repo.id),
      [...path, "id"],
      `repository id ${repo.id} is used twice`,
    );
    repoSeed.hooks.forEach((hookSeed, at) => {
      check(
        !hookIds.has(hookSeed.id),
        [...path, "hooks", at, "id"],
        `hook id ${hookSeed.id} is used twice`,
      );
      hookIds.add(hookSeed.id);
      const built = hookFromSeed(hookSeed);
      // A seed holds only what requests could have made, so GitHub's rule for shared URLs holds.
      const clash = overlappingHook(repo.hooks.values(), built);
      check(
        clash === undefined,
        [...path, "hooks", at],
        `hook ${clash?.id} has the same url and an event in common ("Hook already exists on this repository")`,
      );
      repo.hooks.set(hookSeed.id, built);
    });
    const values = Object.entries(repoSeed.custom_properties);
    if (values.length > 0) {
      check(
        repo.org !== null,
        [...path, "custom_properties"],
        "custom properties belong to repositories of organizations",
      );
      const problems = setValues(
        repo.org,
        [repo],
        values.map(([property_name, value]) => ({ property_name, value })),
      );
      check(problems.length === 0, [...path, "custom_properties"], problems.join("; "));
    }
    for (const id of repo.invitations.keys()) {
      check(!invitationIds.has(id), [...path, "invitations"], `invitation id ${id} is used twice`);
      invitationIds.add(id);
    }
    const stamps = [repo.created_at, ...[...repo.hooks.values()].map((hook) => hook.updated_at)];
    repo.updated_at = latest(stamps);
    world.addRepository(repo);
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
  for (const id of hookIds) world.hookIds.add(id);
  // Created hooks follow the repositories' own; ids an organization's seeded hooks took are passed over.
  world.nextId.hook =
    maxOf(seed.repositories.flatMap((repoSeed) => repoSeed.hooks.map((hook) => hook.id))) + 1;
  world.nextId.invitation = maxOf(invitationIds) + 1;
  world.nextId.team = maxOf(teamIds) + 1;
  applyProtections(world, seed);
  applyOrganizationActions(world, seed);
  buildInstallations(world, seed, fail);
  applyRulesets(world, seed);
  buildRepositoryRecords(world, seed.repositories, fail);
  seedEnvironmentStores(world, seed);

  seed.gists.forEach((gistSeed, index) => {
    const owner = world.account(gistSeed.owner);
    check(owner?.type === "User", ["gists", index, "owner"], `unknown user '${gistSeed.owner}'`);
    const files = new Map(
      Object.entries(gistSeed.files).map(([name, file]) => [
        name,
        typeof file === "string" ? { content: file, language: null } : file,
      ]),
    );
    const value = { ...gistSeed, owner, files };
    world.gists.push(value);
    const list = world.gistsByOwner.get(owner.id);
    if (list) list.push(value);
    else world.gistsByOwner.set(owner.id, [value]);
  });

  seed.migrations.forEach((migrationSeed, index) => {
    const path: SeedPath = ["migrations", index];
    const owner = world.account(migrationSeed.owner);
    check(owner !== undefined, [...path, "owner"], `unknown account '${migrationSeed.owner}'`);
    check(
      !world.migrations.has(migrationSeed.id),
      [...path, "id"],
      `migration id ${migrationSeed.id} is used twice`,
    );
    const repositories = migrationSeed.repositories.map((fullName, at) => {
      const [repoOwner = "", name = ""] = fullName.split("/");
      const repo = world.repository(repoOwner, name);
      check(repo !== undefined, [...path, "repositories", at], `unknown repository '${fullName}'`);
      return repo;
    });
    world.migrations.set(migrationSeed.id, { ...migrationSeed, owner, repositories });
    const running = migrationSeed.state === "pending" || migrationSeed.state === "exporting";
    if (migrationSeed.lock_repositories && running) {
      for (const repo of repositories) world.lockedRepositories.add(repo.id);
    }
  });
}
