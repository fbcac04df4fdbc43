import * as z from "zod";
import { isPlainObject } from "../core/plain.js";
import { mustFind, repoPath, type RepoRef, type ResourceReader } from "./context.js";
import { loginsOf, NO_PRINCIPALS, type PrincipalLists, slugsOf } from "./principals.js";

/**
 * Classic branch protection, in one canonical shape that both the read shape and the write shape
 * map onto: read by the branch-protection kind, and by rulesets that replace a branch's protection
 * or are migrated from it.
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

export const FLAGS = [
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
export const DEFAULT_APPROVALS = 1;

export type Json = Record<string, unknown>;

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

export function record(value: unknown): Json | undefined {
  return isPlainObject(value) ? value : undefined;
}

export function enabled(value: unknown): boolean {
  return record(value)?.enabled === true;
}

export function sortChecks(checks: StatusCheck[]): StatusCheck[] {
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

/** Where a branch's classic protection is read, written and deleted. */
export function protectionPath(repo: RepoRef, branch: string): string {
  return `${repoPath(repo)}/branches/${encodeURIComponent(branch)}/protection`;
}

/** What `GET …/branches/{branch}/protection` answers, as a reader's shape. */
export const PROTECTION_SHAPE = { name: "a Protected Branch", schema: readProtection };

const branchList = {
  name: "branches",
  schema: z.looseObject({ name: z.string(), protected: z.boolean().optional() }),
};

/** The names of a repository's protected branches (`GET …/branches`); a read that fails throws. */
export async function protectedBranches(reader: ResourceReader, repo: RepoRef): Promise<string[]> {
  const path = `${repoPath(repo)}/branches`;
  const branches = mustFind(await reader.list(path, undefined, branchList), path);
  return branches.filter((branch) => branch.protected).map((branch) => branch.name);
}
