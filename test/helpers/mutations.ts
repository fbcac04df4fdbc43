import fc from "fast-check";
import type { BranchProtectionSettings } from "../../src/resources/branch-protection/settings.js";
import {
  createHook,
  deleteHook,
  type LiveHook,
  type LiveRepo,
  listHooks,
  patchHook,
  PROTECTION_FLAGS,
  type PrincipalNames,
  type ProtectionBody,
  readProtection,
  setProtection,
  bodyOf,
} from "./live.js";
import {
  BRANCHES_PER_REPO,
  type DesiredHook,
  HOOK_URLS,
  type RepoFacts,
  type Scenario,
} from "./scenarios.js";

/**
 * Changes another actor makes to live state after forgeplan converged it, each with the diff path it
 * must show as and whether the desired state manages it. A mutation of a field the (partial) desired
 * state does not manage must not show up in the plan at all.
 */
interface Mutation<Live, Desired> {
  name: string;
  /** Mutations whose groups are equal or nested (`rpr` and `rpr.count`) are not combined. */
  group: string;
  applies: (live: Live, repo: RepoFacts) => boolean;
  mutate: (live: Live, repo: RepoFacts) => void;
  path: string;
  managed: (desired: Desired) => boolean;
}

type ProtectionMutation = Mutation<ProtectionBody, BranchProtectionSettings>;
type HookMutation = Mutation<{ hook: LiveHook; patch: Record<string, unknown> }, DesiredHook>;

function toggle(list: string[], name: string): string[] {
  return list.includes(name) ? list.filter((item) => item !== name) : [...list, name];
}

/** A principal list the desired state manages: written, or emptied by an empty object. */
function listManaged(lists: Partial<PrincipalNames> | undefined, key: keyof PrincipalNames) {
  return lists !== undefined && (Object.keys(lists).length === 0 || lists[key] !== undefined);
}

const REVIEW_SWITCHES = [
  "dismiss_stale_reviews",
  "require_code_owner_reviews",
  "require_last_push_approval",
] as const;

const DISMISSAL = "required_pull_request_reviews.dismissal_restrictions";

const protectionMutations: ProtectionMutation[] = [
  ...(["enforce_admins", ...PROTECTION_FLAGS] as const).map((flag): ProtectionMutation => ({
    name: `flip ${flag}`,
    group: flag,
    // The service refuses linear history where squash and rebase merging are both off.
    applies: (live, repo) =>
      flag !== "required_linear_history" || repo.linearHistory || live[flag] === true,
    mutate: (live) => {
      live[flag] = live[flag] !== true;
    },
    path: flag,
    managed: (desired) => desired[flag] !== undefined,
  })),
  {
    name: "disable status checks",
    group: "rsc",
    applies: (live) => live.required_status_checks !== null,
    mutate: (live) => {
      live.required_status_checks = null;
    },
    path: "required_status_checks",
    managed: (desired) => desired.required_status_checks !== undefined,
  },
  {
    name: "enable status checks",
    group: "rsc",
    applies: (live) => live.required_status_checks === null,
    mutate: (live) => {
      live.required_status_checks = { strict: true, checks: [{ context: "ci/other", app_id: -1 }] };
    },
    path: "required_status_checks",
    managed: (desired) => desired.required_status_checks !== undefined,
  },
  {
    name: "flip strict",
    group: "rsc.strict",
    applies: (live) => live.required_status_checks !== null,
    mutate: (live) => {
      live.required_status_checks!.strict = !live.required_status_checks!.strict;
    },
    path: "required_status_checks.strict",
    managed: (desired) => desired.required_status_checks?.strict !== undefined,
  },
  {
    name: "add a status check",
    group: "rsc.checks",
    applies: (live) => live.required_status_checks !== null,
    mutate: (live) => {
      live.required_status_checks!.checks.push({ context: "ci/other", app_id: -1 });
    },
    path: "required_status_checks.checks",
    managed: (desired) =>
      desired.required_status_checks?.checks !== undefined ||
      desired.required_status_checks?.contexts !== undefined,
  },
  {
    name: "reverse the order of the status checks",
    group: "rsc.checks",
    applies: (live) => (live.required_status_checks?.checks.length ?? 0) > 1,
    mutate: (live) => {
      live.required_status_checks!.checks.reverse();
    },
    path: "required_status_checks.checks",
    // Checks are a set: another order is the same state.
    managed: () => false,
  },
  {
    name: "change the app of ci/build",
    group: "rsc.checks",
    applies: (live) =>
      live.required_status_checks?.checks.some((check) => check.context === "ci/build") === true,
    mutate: (live, repo) => {
      const check = live.required_status_checks!.checks.find((c) => c.context === "ci/build")!;
      check.app_id = check.app_id === repo.app.id ? -1 : repo.app.id;
    },
    path: "required_status_checks.checks",
    // Only a check written with an app pins it; without one, whatever app the service chose is right.
    managed: (desired) =>
      desired.required_status_checks?.checks?.some(
        (check) => check.context === "ci/build" && check.app_id !== undefined,
      ) === true,
  },
  {
    name: "disable reviews",
    group: "rpr",
    applies: (live) => live.required_pull_request_reviews !== null,
    mutate: (live) => {
      live.required_pull_request_reviews = null;
    },
    path: "required_pull_request_reviews",
    managed: (desired) => desired.required_pull_request_reviews !== undefined,
  },
  {
    name: "enable reviews",
    group: "rpr",
    applies: (live) => live.required_pull_request_reviews === null,
    mutate: (live) => {
      live.required_pull_request_reviews = { required_approving_review_count: 2 };
    },
    path: "required_pull_request_reviews",
    managed: (desired) => desired.required_pull_request_reviews !== undefined,
  },
  {
    name: "change the approval count",
    group: "rpr.count",
    applies: (live) => live.required_pull_request_reviews !== null,
    mutate: (live) => {
      const rpr = live.required_pull_request_reviews!;
      rpr.required_approving_review_count =
        ((rpr.required_approving_review_count as number) + 1) % 7;
    },
    path: "required_pull_request_reviews.required_approving_review_count",
    managed: (desired) =>
      desired.required_pull_request_reviews?.required_approving_review_count !== undefined,
  },
  ...REVIEW_SWITCHES.map((key): ProtectionMutation => ({
    name: `flip ${key}`,
    group: `rpr.${key}`,
    applies: (live) => live.required_pull_request_reviews !== null,
    mutate: (live) => {
      const rpr = live.required_pull_request_reviews!;
      rpr[key] = rpr[key] !== true;
    },
    path: `required_pull_request_reviews.${key}`,
    managed: (desired) => desired.required_pull_request_reviews?.[key] !== undefined,
  })),
  {
    name: "toggle a pusher in bypass_pull_request_allowances.users",
    group: "rpr.bypass_pull_request_allowances",
    applies: (live) => live.required_pull_request_reviews !== null,
    mutate: (live, repo) => {
      const rpr = live.required_pull_request_reviews!;
      const lists = (rpr.bypass_pull_request_allowances as PrincipalNames | undefined) ?? {
        users: [],
        teams: [],
        apps: [],
      };
      rpr.bypass_pull_request_allowances = { ...lists, users: toggle(lists.users, repo.users[0]!) };
    },
    path: "required_pull_request_reviews.bypass_pull_request_allowances.users",
    managed: (desired) =>
      listManaged(desired.required_pull_request_reviews?.bypass_pull_request_allowances, "users"),
  },
  // Review dismissal restricted to nobody (admins only) is a state of its own, unlike an empty
  // bypass list: turning the restriction on shows as the restriction, not as one of its lists.
  {
    name: "restrict review dismissal to a user",
    group: "rpr.dismissal_restrictions",
    applies: (live) =>
      live.required_pull_request_reviews !== null &&
      live.required_pull_request_reviews.dismissal_restrictions === undefined,
    mutate: (live, repo) => {
      live.required_pull_request_reviews!.dismissal_restrictions = {
        users: [repo.users[0]!],
        teams: [],
        apps: [],
      };
    },
    path: DISMISSAL,
    managed: (desired) =>
      desired.required_pull_request_reviews?.dismissal_restrictions !== undefined,
  },
  {
    name: "toggle a user who may dismiss reviews",
    group: "rpr.dismissal_restrictions",
    applies: (live) => live.required_pull_request_reviews?.dismissal_restrictions !== undefined,
    mutate: (live, repo) => {
      const lists = live.required_pull_request_reviews!.dismissal_restrictions as PrincipalNames;
      lists.users = toggle(lists.users, repo.users[0]!);
    },
    path: `${DISMISSAL}.users`,
    managed: (desired) =>
      listManaged(desired.required_pull_request_reviews?.dismissal_restrictions, "users"),
  },
  {
    name: "lift push restrictions",
    group: "restrictions",
    applies: (live) => live.restrictions !== null,
    mutate: (live) => {
      live.restrictions = null;
    },
    path: "restrictions",
    managed: (desired) => desired.restrictions !== undefined,
  },
  {
    name: "restrict pushes",
    group: "restrictions",
    applies: (live) => live.restrictions === null,
    mutate: (live, repo) => {
      live.restrictions = { users: [repo.users[0]!], teams: [], apps: [] };
    },
    path: "restrictions",
    managed: (desired) => desired.restrictions !== undefined,
  },
  {
    name: "toggle a pusher in restrictions.users",
    group: "restrictions.users",
    applies: (live) => live.restrictions !== null,
    mutate: (live, repo) => {
      live.restrictions!.users = toggle(live.restrictions!.users, repo.users[0]!);
    },
    path: "restrictions.users",
    // users is required whenever restrictions is written.
    managed: (desired) => desired.restrictions != null,
  },
  {
    name: "reverse the order of restrictions.users",
    group: "restrictions.users",
    applies: (live) => (live.restrictions?.users.length ?? 0) > 1,
    mutate: (live) => {
      live.restrictions!.users.reverse();
    },
    path: "restrictions.users",
    managed: () => false,
  },
  {
    name: "toggle the app in restrictions.apps",
    group: "restrictions.apps",
    applies: (live) => live.restrictions !== null,
    mutate: (live, repo) => {
      live.restrictions!.apps = toggle(live.restrictions!.apps, repo.app.slug);
    },
    path: "restrictions.apps",
    managed: (desired) => desired.restrictions?.apps !== undefined,
  },
];

function patchConfig(patch: Record<string, unknown>, key: string, value: string): void {
  patch.config = { ...(patch.config as object | undefined), [key]: value };
}

const hookMutations: HookMutation[] = [
  {
    name: "toggle the release event",
    group: "events",
    applies: () => true,
    mutate: ({ hook, patch }) => {
      patch.events = toggle(hook.events, "release");
    },
    path: "events",
    managed: (desired) => desired.events !== undefined,
  },
  {
    name: "reverse the order of the events",
    group: "events",
    applies: ({ hook }) => hook.events.length > 1,
    mutate: ({ hook, patch }) => {
      patch.events = [...hook.events].reverse();
    },
    path: "events",
    // Events are a set: another order is the same state.
    managed: () => false,
  },
  {
    name: "flip active",
    group: "active",
    applies: () => true,
    mutate: ({ hook, patch }) => {
      patch.active = !hook.active;
    },
    path: "active",
    managed: (desired) => desired.active !== undefined,
  },
  {
    name: "switch the content type",
    group: "content_type",
    applies: () => true,
    mutate: ({ hook, patch }) =>
      patchConfig(patch, "content_type", hook.content_type === "form" ? "json" : "form"),
    path: "content_type",
    managed: (desired) => desired.content_type !== undefined,
  },
  {
    name: "change the branch filter",
    group: "branch_filter",
    applies: () => true,
    mutate: ({ patch }) => {
      patch.branch_filter = "mutated/*";
    },
    path: "branch_filter",
    managed: (desired) => desired.branch_filter !== undefined,
  },
  {
    name: "switch insecure_ssl",
    group: "insecure_ssl",
    applies: () => true,
    mutate: ({ hook, patch }) =>
      patchConfig(patch, "insecure_ssl", hook.config.insecure_ssl === "1" ? "0" : "1"),
    path: "insecure_ssl",
    managed: (desired) => desired.config?.insecure_ssl !== undefined,
  },
  {
    name: "remove the secret",
    group: "secret",
    applies: ({ hook }) => hook.config.secret !== undefined,
    // The service removes a config key sent as an empty string.
    mutate: ({ patch }) => patchConfig(patch, "secret", ""),
    path: "secret",
    managed: (desired) => desired.secret !== undefined,
  },
  {
    name: "remove the authorization header",
    group: "authorization_header",
    applies: ({ hook }) => hook.authorization_header !== undefined,
    mutate: ({ patch }) => {
      patch.authorization_header = "";
    },
    path: "authorization_header",
    managed: (desired) => desired.authorization_header !== undefined,
  },
];

const DELETE_HOOK = "delete the hook";
/** A hook another actor adds after convergence. */
const INTRUDER_URL = "https://intruder.example/hook";

function conflicts(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

/** Applies, in the order drawn, the mutations that fit this live state and do not overlap. */
function pick<Live, Desired>(
  catalog: Mutation<Live, Desired>[],
  names: readonly string[],
  live: Live,
  repo: RepoFacts,
): Mutation<Live, Desired>[] {
  const chosen: Mutation<Live, Desired>[] = [];
  for (const name of names) {
    const mutation = catalog.find((m) => m.name === name);
    if (!mutation || !mutation.applies(live, repo)) continue;
    if (chosen.some((other) => conflicts(other.group, mutation.group))) continue;
    mutation.mutate(live, repo);
    chosen.push(mutation);
  }
  return chosen;
}

export interface Mutations {
  /** Per branch: names of protection mutations, in the order to try them. */
  protections: string[][];
  /** Per URL of HOOK_URLS: names of hook mutations, in the order to try them. */
  hooks: string[][];
  /** Add a hook the desired state does not list. */
  intruder: boolean;
}

export const mutations: fc.Arbitrary<Mutations> = fc.record({
  protections: fc.tuple(
    ...Array.from({ length: BRANCHES_PER_REPO }, () =>
      fc.shuffledSubarray(
        protectionMutations.map((m) => m.name),
        { maxLength: 4 },
      ),
    ),
  ),
  hooks: fc.tuple(
    ...HOOK_URLS.map(() =>
      fc.shuffledSubarray([DELETE_HOOK, ...hookMutations.map((m) => m.name)], { maxLength: 3 }),
    ),
  ),
  intruder: fc.boolean(),
});

/** Address → the action the re-plan must show, and for an update the diff paths, sorted. */
export type Expected = Record<string, { action: string; paths?: string[] }>;

function managedPaths<Live, Desired>(
  applied: Mutation<Live, Desired>[],
  desired: Desired,
): string[] {
  return [...new Set(applied.filter((m) => m.managed(desired)).map((m) => m.path))].sort();
}

async function mutateProtections(live: LiveRepo, s: Scenario, m: Mutations, expected: Expected) {
  for (const [index, branch] of s.repo.branches.entries()) {
    const names = m.protections[index]!;
    if (names.length === 0) continue;
    const desired = s.protections[index];
    const address = `github/${s.repo.owner}/${s.repo.name}/branch_protection/${branch}`;
    const read = await readProtection(live, branch);
    if (read === null) {
      // Unprotected: protecting it is the mutation, which only a branch that must stay unprotected sees.
      await setProtection(live, branch, {
        required_status_checks: null,
        enforce_admins: true,
        required_pull_request_reviews: null,
        restrictions: null,
      });
      if (desired === null) expected[address] = { action: "delete" };
      continue;
    }
    const body = bodyOf(read);
    const applied = pick(protectionMutations, names, body, s.repo);
    await setProtection(live, branch, body);
    const paths = desired ? managedPaths(applied, desired) : [];
    if (paths.length > 0) expected[address] = { action: "update", paths };
  }
}

async function mutateHooks(live: LiveRepo, s: Scenario, m: Mutations, expected: Expected) {
  const hooks = await listHooks(live);
  for (const [index, url] of HOOK_URLS.entries()) {
    const hook = hooks.find((h) => h.config.url === url);
    if (!hook) continue;
    const desired = s.hooks[index];
    const address = `github/${s.repo.owner}/${s.repo.name}/webhook/${url}`;
    const names = m.hooks[index]!;
    if (names[0] === DELETE_HOOK) {
      await deleteHook(live, hook.id);
      if (desired) expected[address] = { action: "create" };
      continue;
    }
    const patch: Record<string, unknown> = {};
    const applied = pick(hookMutations, names, { hook, patch }, s.repo);
    if (applied.length === 0) continue;
    await patchHook(live, hook.id, patch);
    const paths = desired ? managedPaths(applied, desired) : [];
    if (paths.length > 0) expected[address] = { action: "update", paths };
  }
  if (m.intruder) {
    await createHook(live, { config: { url: INTRUDER_URL }, events: ["push"] });
    if (s.mode === "authoritative") {
      expected[`github/${s.repo.owner}/${s.repo.name}/webhook/${INTRUDER_URL}`] = {
        action: "delete",
      };
    }
  }
}

/**
 * Applies the drawn mutations to a converged repository over plain HTTP and returns what the next
 * plan must show: exactly the mutated fields the desired state manages, nothing else.
 */
export async function mutate(live: LiveRepo, s: Scenario, m: Mutations): Promise<Expected> {
  const expected: Expected = {};
  await mutateProtections(live, s, m, expected);
  await mutateHooks(live, s, m, expected);
  return expected;
}
