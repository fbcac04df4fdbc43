import fc from "fast-check";
import { Secret } from "../../src/core/secret.js";
import type { BranchProtectionSettings } from "../../src/resources/branch-protection/settings.js";
import type { WebhookSettings } from "../../src/resources/webhook/settings.js";
import type { EngineEntry } from "./engine.js";
import type { SandboxOptions } from "../../src/sandbox/index.js";

/**
 * Random starting points and desired states for the convergence properties, drawn from facts of the
 * sandbox's worlds (src/sandbox/seed/demo-world.ts, src/sandbox/seed/generate.ts and the small test world), so
 * that every desired state is one the service accepts: principals that exist and can push, apps that
 * are installed, linear history only where squash or rebase merging is allowed.
 */

type Json = Record<string, unknown>;

export interface RepoFacts {
  world: SandboxOptions;
  /** A token with admin on the repository. */
  token: string;
  owner: string;
  name: string;
  branches: string[];
  /** Users and teams with push access: the service keeps no others in push restrictions. */
  users: string[];
  teams: string[];
  app: { slug: string; id: number };
  /** The repository allows squash or rebase merging. */
  linearHistory: boolean;
}

const demoWorld: SandboxOptions = { generate: 1 };
const CI_BOT = { slug: "ci-bot", id: 15368 };

export const REPOS: RepoFacts[] = [
  // octo-admin owns acme, octo-dev is a push collaborator, platform pushes, release-managers
  // maintain; ci-bot recently provided ci/build here, so a check without app_id picks it.
  {
    world: demoWorld,
    token: "sandbox-admin",
    owner: "acme",
    name: "api",
    branches: ["main", "release"],
    users: ["octo-admin", "octo-dev"],
    teams: ["platform", "release-managers"],
    app: CI_BOT,
    linearHistory: true,
  },
  // Generated repositories have no collaborators or teams: only the organization's owner pushes.
  {
    world: demoWorld,
    token: "sandbox-admin",
    owner: "acme",
    name: "repo-0001",
    branches: ["main", "dev"],
    users: ["octo-admin"],
    teams: [],
    app: CI_BOT,
    linearHistory: true,
  },
  // Merge commits only (no linear history), required signatures on main, a branch with a slash.
  {
    world: { seed: "test/sandbox/fixtures/small-world.yaml" },
    token: "alice-token",
    owner: "tiny",
    name: "strict",
    branches: ["main", "release/v1"],
    users: ["alice", "carol"],
    teams: [],
    app: { slug: "lint-bot", id: 7 },
    linearHistory: false,
  },
];

export const BRANCHES_PER_REPO = 2;
export const CONTEXTS = ["ci/build", "ci/test", "lint"];
export const HOOK_URLS = [
  "https://ci.acme.example/hooks/forge",
  "https://chat.acme.example/notify",
  "https://deploy.acme.example/hook",
];
/** A live hook the desired state never lists (authoritative mode deletes it). */
export const STRANGER_URL = "https://stranger.example/hook";
export const EVENTS = ["push", "pull_request", "issues", "issue_comment", "deployment", "release"];
export const CONFIG_KEYS = ["insecure_ssl"];
export const SECRET = new Secret("hook-signing-secret", "HOOK_SECRET");
export const AUTH = new Secret("Bearer hook-delivery-token", "HOOK_AUTH");
export const SECRET_ENV = { HOOK_SECRET: SECRET.reveal(), HOOK_AUTH: AUTH.reveal() };

/** A login or slug from the pool in random letter case. */
function cased(pool: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...pool), fc.nat())
    .map(([name, mask]) =>
      [...name].map((ch, i) => ((mask >> (i % 31)) & 1 ? ch.toUpperCase() : ch)).join(""),
    );
}

function principals(pool: readonly string[]): fc.Arbitrary<string[]> {
  return pool.length === 0 ? fc.constant([]) : fc.array(cased(pool), { maxLength: 3 });
}

function principalLists(repo: RepoFacts) {
  return fc.record(
    {
      users: principals(repo.users),
      teams: principals(repo.teams),
      apps: principals([repo.app.slug]),
    },
    { requiredKeys: [] },
  );
}

/** Checks with and without app_id (-1: any app), one per context. */
function statusChecks(repo: RepoFacts) {
  return fc.uniqueArray(
    fc.record(
      { context: fc.constantFrom(...CONTEXTS), app_id: fc.constantFrom(-1, repo.app.id) },
      { requiredKeys: ["context"] },
    ),
    { maxLength: 3, selector: (check) => check.context },
  );
}

function reviews(repo: RepoFacts) {
  return fc.record(
    {
      // An empty object disables dismissal restrictions.
      dismissal_restrictions: fc.oneof(fc.constant({}), principalLists(repo)),
      dismiss_stale_reviews: fc.boolean(),
      require_code_owner_reviews: fc.boolean(),
      required_approving_review_count: fc.integer({ min: 0, max: 6 }),
      require_last_push_approval: fc.boolean(),
      bypass_pull_request_allowances: principalLists(repo),
    },
    { requiredKeys: [] },
  );
}

function pushRestrictions(repo: RepoFacts) {
  return fc.record(
    {
      users: principals(repo.users),
      teams: principals(repo.teams),
      apps: principals([repo.app.slug]),
    },
    { requiredKeys: ["users", "teams"] },
  );
}

function flags(repo: RepoFacts) {
  return {
    required_linear_history: repo.linearHistory ? fc.boolean() : fc.constant(false),
    allow_force_pushes: fc.constantFrom(true, false, null),
    allow_deletions: fc.boolean(),
    block_creations: fc.boolean(),
    required_conversation_resolution: fc.boolean(),
    lock_branch: fc.boolean(),
    allow_fork_syncing: fc.boolean(),
  };
}

/** Partial desired settings: any subset of the PUT body's fields, nulls included. */
export function desiredProtection(repo: RepoFacts): fc.Arbitrary<BranchProtectionSettings> {
  return fc.record(
    {
      required_status_checks: fc.oneof(
        fc.constant(null),
        fc.record({ strict: fc.boolean(), checks: statusChecks(repo) }, { requiredKeys: [] }),
        // The closing-down `contexts`, duplicates included.
        fc.record(
          {
            strict: fc.boolean(),
            contexts: fc.array(fc.constantFrom(...CONTEXTS), { maxLength: 3 }),
          },
          { requiredKeys: ["contexts"] },
        ),
      ),
      enforce_admins: fc.constantFrom(true, false, null),
      required_pull_request_reviews: fc.option(reviews(repo), { nil: null }),
      restrictions: fc.option(pushRestrictions(repo), { nil: null }),
      ...flags(repo),
    },
    { requiredKeys: [] },
  );
}

/** A complete PUT body, written straight to the service as the starting point. */
function liveProtection(repo: RepoFacts): fc.Arbitrary<Json> {
  return fc.record(
    {
      required_status_checks: fc.option(
        fc.record({ strict: fc.boolean(), checks: statusChecks(repo) }),
        { nil: null },
      ),
      enforce_admins: fc.constantFrom(true, false, null),
      required_pull_request_reviews: fc.option(reviews(repo), { nil: null }),
      restrictions: fc.option(pushRestrictions(repo), { nil: null }),
      ...flags(repo),
    },
    {
      requiredKeys: [
        "required_status_checks",
        "enforce_admins",
        "required_pull_request_reviews",
        "restrictions",
      ],
    },
  );
}

/** A starting hook, with or without secrets. */
function liveHook(url: string): fc.Arbitrary<Json> {
  return fc
    .record({
      events: fc.array(fc.constantFrom(...EVENTS), { minLength: 1, maxLength: 3 }),
      active: fc.boolean(),
      branch_filter: fc.constantFrom("*", "main", "release/*"),
      content_type: fc.constantFrom("json", "form"),
      extra: fc.dictionary(fc.constantFrom(...CONFIG_KEYS), fc.constantFrom("0", "1")),
      secret: fc.boolean(),
      authorization: fc.boolean(),
    })
    .map(({ extra, content_type, secret, authorization, ...rest }) => ({
      ...rest,
      config: { url, content_type, ...extra, ...(secret ? { secret: "old-secret" } : {}) },
      ...(authorization ? { authorization_header: "Bearer old" } : {}),
    }));
}

export type DesiredHook = WebhookSettings;

/** A desired hook: any subset of its fields; events in random order with duplicates. */
export function desiredHook(url: string): fc.Arbitrary<DesiredHook> {
  return fc
    .record(
      {
        events: fc.array(fc.constantFrom(...EVENTS, "*"), { maxLength: 4 }),
        active: fc.boolean(),
        content_type: fc.constantFrom("json" as const, "form" as const),
        // "" is the service's "every branch" for a filter.
        branch_filter: fc.constantFrom("*", "main", "release/*", ""),
        config: fc.record(
          { insecure_ssl: fc.constantFrom("0" as const, "1" as const) },
          { requiredKeys: [] },
        ),
        secret: fc.constant(SECRET),
        authorization_header: fc.constant(AUTH),
      },
      { requiredKeys: [] },
    )
    .map((hook) => ({ url, ...hook }));
}

export interface Scenario {
  repo: RepoFacts;
  /** Per branch of the repository: a PUT body, or null for unprotected. */
  liveProtections: Array<Json | null>;
  /** Per URL of HOOK_URLS, then STRANGER_URL: a POST body, or null for absent. */
  liveHooks: Array<Json | null>;
  /** Per branch: settings, null (must be unprotected) or undefined (not managed). */
  protections: Array<BranchProtectionSettings | null | undefined>;
  /** Per URL of HOOK_URLS: the desired hook, or undefined (not listed). */
  hooks: Array<DesiredHook | undefined>;
  mode: "additive" | "authoritative";
}

export function scenarios(repos: readonly RepoFacts[] = REPOS): fc.Arbitrary<Scenario> {
  return fc.constantFrom(...repos).chain((repo) =>
    fc.record({
      repo: fc.constant(repo),
      liveProtections: fc.tuple(
        ...repo.branches.map(() => fc.option(liveProtection(repo), { nil: null })),
      ),
      liveHooks: fc.tuple(
        ...[...HOOK_URLS, STRANGER_URL].map((url) => fc.option(liveHook(url), { nil: null })),
      ),
      protections: fc.tuple(
        ...repo.branches.map(() =>
          fc.option(fc.option(desiredProtection(repo), { nil: null }), { nil: undefined }),
        ),
      ),
      hooks: fc.tuple(...HOOK_URLS.map((url) => fc.option(desiredHook(url), { nil: undefined }))),
      mode: fc.constantFrom("additive" as const, "authoritative" as const),
    }),
  );
}

/** The scenario's desired repository entry: its selector and settings, as a user writes them. */
export function desiredEntry(s: Scenario): EngineEntry & {
  settings: {
    branch_protection: Record<string, BranchProtectionSettings | null>;
    webhooks: { mode: "additive" | "authoritative"; hooks: DesiredHook[] };
  };
} {
  const branchProtection: Record<string, BranchProtectionSettings | null> = {};
  s.repo.branches.forEach((branch, index) => {
    const settings = s.protections[index];
    if (settings !== undefined) branchProtection[branch] = settings;
  });
  const hooks = s.hooks.filter((hook): hook is DesiredHook => hook !== undefined);
  return {
    selector: { kind: "name", owner: s.repo.owner, repo: s.repo.name },
    ownerType: "organization",
    settings: { branch_protection: branchProtection, webhooks: { mode: s.mode, hooks } },
  };
}
