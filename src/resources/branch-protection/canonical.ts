import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import {
  type CanonicalProtection,
  DEFAULT_APPROVALS,
  FLAGS,
  fromRead,
  type Json,
  readProtection,
  record,
  type StatusCheck,
  sortChecks,
  UNPROTECTED_DEFAULTS,
} from "../classic-protection.js";
import { diffValues } from "../diff.js";
import { isEmptyLists, NO_PRINCIPALS, type PrincipalLists, principalSet } from "../principals.js";
import type { BranchProtectionSettings } from "./settings.js";

/**
 * The write side of the canonical protection (../classic-protection.ts): the record a PUT writes,
 * built from live state plus the desired fields (fields the user did not write keep their live
 * values), and what the service must answer to a PUT.
 */

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
