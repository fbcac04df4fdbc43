import * as z from "zod";
import { type Change, type DiffEntry, newChange, type PlannedRequest } from "../../core/plan.js";
import {
  type BranchProtectionSettings,
  type BranchProtections,
  branchProtections,
  protectionRules,
} from "./settings.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import {
  isEmptyLists,
  loginsOf,
  NO_PRINCIPALS,
  type PrincipalLists,
  principalSet,
  slugsOf,
} from "../principals.js";
import { changeError, mustFind, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import type { KindModule } from "../kind.js";
import { protectionGraphql } from "./graphql.js";
import { protectionPath } from "./path.js";

export { protectionPath } from "./path.js";

/**
 * Branch protection, in one canonical shape that both the read shape and the write shape map onto.
 *
 * - `{url, enabled}` wrappers become booleans; every url is dropped; absent and null mean disabled.
 * - Users/teams/apps are lower-cased, sorted sets of logins/slugs.
 * - Review dismissal is `null` when anyone who may review may dismiss, and lists when it is
 *   restricted to them; with every list empty only admins may dismiss, which is a state of its own
 *   (GitHub's "Restrict who can dismiss pull request reviews" with nobody named), not "no restriction".
 * - Status checks are `{context, app_id}` sets: `app_id: null` means any app (written as -1); a check
 *   without `app_id` lets the service pick the app, so it matches whatever app the service chose.
 * - The PUT replaces the whole record, so the record to write is built from live state plus the
 *   desired fields: fields the user did not write keep their live values (partial desired state).
 */
export interface StatusCheck {
  context: string;
  app_id?: number | null;
}

export interface CanonicalProtection {
  required_status_checks: { strict: boolean; checks: StatusCheck[] } | null;
  enforce_admins: boolean;
  required_pull_request_reviews: {
    dismissal_restrictions: PrincipalLists | null;
    dismiss_stale_reviews: boolean;
    require_code_owner_reviews: boolean;
    required_approving_review_count: number;
    require_last_push_approval: boolean;
    bypass_pull_request_allowances: PrincipalLists;
  } | null;
  restrictions: PrincipalLists | null;
  required_linear_history: boolean;
  allow_force_pushes: boolean;
  allow_deletions: boolean;
  block_creations: boolean;
  required_conversation_resolution: boolean;
  lock_branch: boolean;
  allow_fork_syncing: boolean;
}

const FLAGS = [
  "required_linear_history",
  "allow_force_pushes",
  "allow_deletions",
  "block_creations",
  "required_conversation_resolution",
  "lock_branch",
  "allow_fork_syncing",
] as const;

/** The service's defaults for a newly protected branch: every optional feature off. */
export const UNPROTECTED_DEFAULTS: CanonicalProtection = {
  required_status_checks: null,
  enforce_admins: false,
  required_pull_request_reviews: null,
  restrictions: null,
  required_linear_history: false,
  allow_force_pushes: false,
  allow_deletions: false,
  block_creations: false,
  required_conversation_resolution: false,
  lock_branch: false,
  allow_fork_syncing: false,
};

/**
 * Required approvals when a record does not say: GitHub's default of one approving review. A read
 * may leave the count out, and then it is one (observed: googleapis/repo-automation-bots#1526, "The
 * GitHub API will not specifically return `required_approving_review_count` … it defaults to `1`").
 * Reads and writes use this one value, and it is written explicitly so the record read back never
 * differs from the plan.
 */
const DEFAULT_APPROVALS = 1;

type Json = Record<string, unknown>;

const enabledFlag = z.looseObject({ enabled: z.boolean() });
/** required_conversation_resolution, lock_branch and allow_fork_syncing: `enabled` is optional. */
const optionalFlag = z.looseObject({ enabled: z.boolean().optional() });
const principal = z.looseObject({
  login: z.string().optional(),
  slug: z.string().optional(),
  name: z.string().optional(),
});
const principalLists = z.looseObject({
  users: z.array(principal).optional(),
  teams: z.array(principal).optional(),
  apps: z.array(principal).optional(),
});

/**
 * The Protected Branch record as far as the planner reads it. `url` is required (the spec marks it
 * so): an empty object is not "every feature off", and must never be taken for it — the PUT built
 * from it would erase the live checks and reviews.
 */
export const readProtection = z.looseObject({
  url: z.string(),
  required_status_checks: z
    .looseObject({
      strict: z.boolean().optional(),
      contexts: z.array(z.string()).optional(),
      checks: z
        .array(z.looseObject({ context: z.string(), app_id: z.number().int().nullish() }))
        .optional(),
    })
    .nullish(),
  enforce_admins: enabledFlag.nullish(),
  required_pull_request_reviews: z
    .looseObject({
      dismissal_restrictions: principalLists.nullish(),
      dismiss_stale_reviews: z.boolean().optional(),
      require_code_owner_reviews: z.boolean().optional(),
      required_approving_review_count: z.number().int().optional(),
      require_last_push_approval: z.boolean().optional(),
      bypass_pull_request_allowances: principalLists.nullish(),
    })
    .nullish(),
  restrictions: principalLists.nullish(),
  required_signatures: enabledFlag.nullish(),
  required_linear_history: enabledFlag.nullish(),
  allow_force_pushes: enabledFlag.nullish(),
  allow_deletions: enabledFlag.nullish(),
  block_creations: enabledFlag.nullish(),
  required_conversation_resolution: optionalFlag.nullish(),
  lock_branch: optionalFlag.nullish(),
  allow_fork_syncing: optionalFlag.nullish(),
});

function record(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" ? (value as Json) : undefined;
}

function enabled(value: unknown): boolean {
  return record(value)?.enabled === true;
}

function sortChecks(checks: StatusCheck[]): StatusCheck[] {
  const seen = new Map<string, StatusCheck>();
  for (const check of checks) {
    seen.set(`${check.context}\u0000${check.app_id === undefined ? "auto" : check.app_id}`, check);
  }
  return [...seen.values()].sort((a, b) =>
    a.context === b.context
      ? String(a.app_id ?? "").localeCompare(String(b.app_id ?? ""))
      : a.context < b.context
        ? -1
        : 1,
  );
}

/** `-1` (any app) reads back as null on the service; both are "any app". */
function appIdOf(value: unknown): number | null {
  return typeof value === "number" && value !== -1 ? value : null;
}

function readLists(value: unknown): PrincipalLists {
  const lists = record(value);
  if (!lists) return { ...NO_PRINCIPALS };
  return {
    users: loginsOf(lists.users as never),
    teams: slugsOf(lists.teams as never),
    apps: slugsOf(lists.apps as never),
  };
}

/** Normalizes the Protected Branch record as read into the canonical shape. */
export function fromRead(read: unknown): CanonicalProtection {
  const live = record(read) ?? {};
  const rsc = record(live.required_status_checks);
  const rpr = record(live.required_pull_request_reviews);
  const canonical: CanonicalProtection = {
    ...UNPROTECTED_DEFAULTS,
    required_status_checks: rsc
      ? {
          strict: rsc.strict === true,
          checks: sortChecks(
            Array.isArray(rsc.checks) && rsc.checks.length > 0
              ? (rsc.checks as Json[]).map((c) => ({
                  context: String(c.context),
                  app_id: appIdOf(c.app_id),
                }))
              : ((rsc.contexts as string[] | undefined) ?? []).map((context) => ({
                  context,
                  app_id: null,
                })),
          ),
        }
      : null,
    enforce_admins: enabled(live.enforce_admins),
    required_pull_request_reviews: rpr
      ? {
          // The service leaves the object out unless dismissal is restricted.
          dismissal_restrictions: record(rpr.dismissal_restrictions)
            ? readLists(rpr.dismissal_restrictions)
            : null,
          dismiss_stale_reviews: rpr.dismiss_stale_reviews === true,
          require_code_owner_reviews: rpr.require_code_owner_reviews === true,
          required_approving_review_count:
            typeof rpr.required_approving_review_count === "number"
              ? rpr.required_approving_review_count
              : DEFAULT_APPROVALS,
          require_last_push_approval: rpr.require_last_push_approval === true,
          bypass_pull_request_allowances: readLists(rpr.bypass_pull_request_allowances),
        }
      : null,
    restrictions: live.restrictions ? readLists(live.restrictions) : null,
  };
  for (const flag of FLAGS) canonical[flag] = enabled(live[flag]);
  return canonical;
}

type WrittenLists = { users?: string[]; teams?: string[]; apps?: string[] };

/** Lists written replace those of `base`, lists not written keep them; an empty object clears all. */
function overlayLists(desired: WrittenLists | undefined, base: PrincipalLists): PrincipalLists {
  if (desired === undefined) return base;
  if (Object.keys(desired).length === 0) return { ...NO_PRINCIPALS };
  return {
    users: desired.users ? principalSet(desired.users) : base.users,
    teams: desired.teams ? principalSet(desired.teams) : base.teams,
    apps: desired.apps ? principalSet(desired.apps) : base.apps,
  };
}

/**
 * An empty object lifts the restriction (the spec's rule for dismissal_restrictions); an object with
 * lists restricts dismissal to them, to admins only when they are empty.
 */
function overlayDismissal(
  desired: WrittenLists | undefined,
  base: PrincipalLists | null,
): PrincipalLists | null {
  if (desired === undefined) return base;
  if (Object.keys(desired).length === 0) return null;
  return overlayLists(desired, base ?? NO_PRINCIPALS);
}

function desiredChecks(
  written: ReadonlyArray<{ context: string; app_id?: number }>,
  live: StatusCheck[],
): StatusCheck[] {
  return sortChecks(
    written.map(({ context, app_id }) => {
      if (app_id === -1) return { context, app_id: null };
      if (app_id !== undefined) return { context, app_id };
      // No app written: whatever app the service chose for this context is right.
      const chosen = live.find((check) => check.context === context);
      return chosen ? { context, app_id: chosen.app_id ?? null } : { context };
    }),
  );
}

/** The record to write: live state (or the defaults) with the desired fields laid over it. */
export function targetOf(
  desired: BranchProtectionSettings,
  live: CanonicalProtection | null,
): CanonicalProtection {
  const base = live ?? UNPROTECTED_DEFAULTS;
  const target: CanonicalProtection = { ...base };
  if (desired.required_status_checks !== undefined) {
    const rsc = desired.required_status_checks;
    const liveChecks = base.required_status_checks?.checks ?? [];
    target.required_status_checks =
      rsc === null
        ? null
        : {
            strict: rsc.strict ?? base.required_status_checks?.strict ?? false,
            checks: rsc.checks
              ? desiredChecks(rsc.checks, liveChecks)
              : rsc.contexts
                ? desiredChecks(
                    rsc.contexts.map((context) => ({ context })),
                    liveChecks,
                  )
                : liveChecks,
          };
  }
  if (desired.enforce_admins !== undefined) target.enforce_admins = desired.enforce_admins === true;
  if (desired.required_pull_request_reviews !== undefined) {
    const rpr = desired.required_pull_request_reviews;
    const old = base.required_pull_request_reviews;
    target.required_pull_request_reviews =
      rpr === null
        ? null
        : {
            dismissal_restrictions: overlayDismissal(
              rpr.dismissal_restrictions,
              old?.dismissal_restrictions ?? null,
            ),
            dismiss_stale_reviews: rpr.dismiss_stale_reviews ?? old?.dismiss_stale_reviews ?? false,
            require_code_owner_reviews:
              rpr.require_code_owner_reviews ?? old?.require_code_owner_reviews ?? false,
            required_approving_review_count:
              rpr.required_approving_review_count ??
              old?.required_approving_review_count ??
              DEFAULT_APPROVALS,
            require_last_push_approval:
              rpr.require_last_push_approval ?? old?.require_last_push_approval ?? false,
            bypass_pull_request_allowances: overlayLists(
              rpr.bypass_pull_request_allowances,
              old?.bypass_pull_request_allowances ?? { ...NO_PRINCIPALS },
            ),
          };
  }
  if (desired.restrictions !== undefined) {
    const restrictions = desired.restrictions;
    target.restrictions =
      restrictions === null
        ? null
        : {
            users: principalSet(restrictions.users),
            teams: principalSet(restrictions.teams),
            apps: restrictions.apps
              ? principalSet(restrictions.apps)
              : (base.restrictions?.apps ?? []),
          };
  }
  for (const flag of FLAGS) {
    const value = desired[flag];
    if (value !== undefined) target[flag] = value === true;
  }
  return target;
}

/** The PUT body for a canonical record; `live` decides whether emptied lists must be sent to clear them. */
export function toBody(target: CanonicalProtection, live: CanonicalProtection | null): Json {
  const rsc = target.required_status_checks;
  const rpr = target.required_pull_request_reviews;
  const liveRpr = live?.required_pull_request_reviews;
  const body: Json = {
    required_status_checks: rsc && {
      strict: rsc.strict,
      // `contexts` is closing down and derived from `checks`; sending both is refused upstream.
      checks: rsc.checks.map((check) =>
        check.app_id === undefined
          ? { context: check.context }
          : { context: check.context, app_id: check.app_id ?? -1 },
      ),
    },
    enforce_admins: target.enforce_admins,
    required_pull_request_reviews: rpr && {
      dismiss_stale_reviews: rpr.dismiss_stale_reviews,
      require_code_owner_reviews: rpr.require_code_owner_reviews,
      required_approving_review_count: rpr.required_approving_review_count,
      require_last_push_approval: rpr.require_last_push_approval,
      // Sent whenever dismissal is restricted, lists empty or not: left out, the PUT would lift the
      // restriction. Lifted with `{}` only when it is on: personal repositories refuse the key.
      ...(rpr.dismissal_restrictions !== null
        ? { dismissal_restrictions: { ...rpr.dismissal_restrictions } }
        : liveRpr?.dismissal_restrictions
          ? { dismissal_restrictions: {} }
          : {}),
      ...(isEmptyLists(rpr.bypass_pull_request_allowances) &&
      isEmptyLists(liveRpr?.bypass_pull_request_allowances)
        ? {}
        : { bypass_pull_request_allowances: { ...rpr.bypass_pull_request_allowances } }),
    },
    restrictions: target.restrictions && { ...target.restrictions },
  };
  for (const flag of FLAGS) body[flag] = target[flag];
  return body;
}

/** Fills checks written without an app with the app the other side chose, so they compare equal. */
function alignChecks(
  expected: CanonicalProtection,
  actual: CanonicalProtection | null,
): CanonicalProtection {
  const rsc = expected.required_status_checks;
  if (!rsc || !rsc.checks.some((check) => check.app_id === undefined)) return expected;
  const chosen = actual?.required_status_checks?.checks ?? [];
  return {
    ...expected,
    required_status_checks: {
      ...rsc,
      checks: sortChecks(
        rsc.checks.map((check) =>
          check.app_id !== undefined
            ? check
            : {
                context: check.context,
                app_id: chosen.find((c) => c.context === check.context)?.app_id ?? null,
              },
        ),
      ),
    },
  };
}

/** What differs between what was written and what the service answered (it may drop principals). */
export function verifyWritten(request: PlannedRequest, response: unknown): DiffEntry[] {
  const parsed = readProtection.safeParse(response);
  if (!parsed.success) {
    return [{ path: "(response)", before: "a Protected Branch", after: "something else" }];
  }
  const actual = fromRead(parsed.data);
  const expected = alignChecks(fromBody(request.body), actual);
  return diffValues(expected, actual);
}

/** Reads a PUT body back into the canonical shape (for verifying a write against its response). */
export function fromBody(body: unknown): CanonicalProtection {
  const desired = (record(body) ?? {}) as BranchProtectionSettings;
  return targetOf(desired, null);
}

export interface ProtectionPlanInput {
  reader: ResourceReader;
  repo: RepoRef;
  branch: string;
  desired: BranchProtectionSettings | null;
}

/** Reads one branch's protection and plans the change that makes it match the desired settings. */
export async function planBranchProtection({
  reader,
  repo,
  branch,
  desired,
}: ProtectionPlanInput): Promise<Change> {
  const scope = `${repo.owner}/${repo.name}`;
  const base = newChange(reader.target, scope, "branch_protection", branch);
  const path = protectionPath(repo, branch);
  const read = await reader.getOrAbsent(path, {
    name: "a Protected Branch",
    schema: readProtection,
  });
  if (read.kind === "error") return { ...base, error: read.error };
  if (read.kind === "absent" && read.detail !== "Branch not protected") {
    return {
      ...base,
      error: changeError(
        read.detail === "Branch not found"
          ? `branch '${branch}' does not exist in ${scope}`
          : `repository ${scope} was not found (or ${reader.credential} cannot see it)`,
        "GET",
        path,
        404,
      ),
    };
  }
  const live = read.kind === "found" ? fromRead(read.data) : null;
  const notes: string[] = [];
  if (read.kind === "found" && enabled(record(read.data)?.required_signatures)) {
    notes.push("required_signatures is enabled; the protection PUT cannot change it (not managed)");
  }
  const withNotes = (change: Change): Change => (notes.length > 0 ? { ...change, notes } : change);
  base.live_fingerprint = fingerprint(live);

  if (desired === null) {
    if (live === null) return withNotes(base);
    return withNotes({
      ...base,
      action: "delete",
      diff: diffValues(live, {}),
      requests: [{ method: "DELETE", path }],
    });
  }
  const target = targetOf(desired, live);
  // A new protection is shown as what it changes from an unprotected branch (every feature off).
  const diff = diffValues(live ?? UNPROTECTED_DEFAULTS, target);
  if (live !== null && diff.length === 0) return withNotes(base);
  const request: PlannedRequest = { method: "PUT", path, body: toBody(target, live) };
  return withNotes({
    ...base,
    action: live === null ? "create" : "update",
    diff,
    requests: [request],
  });
}

/**
 * The desired-state settings that reproduce a canonical record exactly (used by export): the body
 * written for an unprotected branch has the settings' shape, with every field present.
 */
export function toSettings(canonical: CanonicalProtection): BranchProtectionSettings {
  return toBody(canonical, null) as BranchProtectionSettings;
}

const branchList = {
  name: "branches",
  schema: z.looseObject({ name: z.string(), protected: z.boolean().optional() }),
};

/** Every protected branch of a repository, as settings that plan as no change. */
async function exportProtections(reader: ResourceReader, repo: RepoRef) {
  const path = `${repoPath(repo)}/branches`;
  const branches = mustFind(await reader.list(path, undefined, branchList), path);
  const protections: Record<string, BranchProtectionSettings> = {};
  for (const branch of branches.filter((candidate) => candidate.protected)) {
    const path = protectionPath(repo, branch.name);
    const read = await reader.getOrAbsent(path, {
      name: "a Protected Branch",
      schema: readProtection,
    });
    // Unprotected since the list was read: nothing to export for it.
    if (read.kind === "absent") continue;
    protections[branch.name] = toSettings(fromRead(mustFind(read, path)));
  }
  return Object.keys(protections).length > 0 ? protections : undefined;
}

export const branchProtection: KindModule = {
  name: "branch_protection",
  repository: {
    setting: {
      key: "branch_protection",
      schema: branchProtections,
      rules: protectionRules,
      defines: (value) =>
        Object.keys(value as BranchProtections).map((branch) => ({
          id: `branch ${branch}`,
          path: [branch],
          what: `the protection of branch ${branch}`,
        })),
      print: (value) =>
        Object.keys(value as BranchProtections).map((branch) => ({
          kind: "branch_protection",
          name: branch,
          path: [branch],
        })),
    },
    plan: ({ reader, repo, value }) =>
      Promise.all(
        Object.entries(value as BranchProtections).map(([branch, desired]) =>
          planBranchProtection({ reader, repo, branch, desired }),
        ),
      ),
    export: exportProtections,
    // A GET of each branch's protection.
    restReads: (value) => Object.keys(value as BranchProtections).length,
    graphql: protectionGraphql,
  },
  verify: verifyWritten,
};
