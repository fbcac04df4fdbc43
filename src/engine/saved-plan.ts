import { describeFailure } from "../core/failure-text.js";
import { type Change, isUnlisted, type Plan } from "../core/plan.js";
import { stableJson } from "../core/plain.js";

/** A saved change that may not be applied, and why. */
export interface Refusal {
  address: string;
  reason: string;
}

function sendsRequests(entry: Change | undefined): entry is Change {
  return entry !== undefined && entry.requests.length > 0 && entry.error === undefined;
}

/**
 * Checks a saved plan against a fresh plan of the same configuration, change by change. A saved
 * change may be applied only if the fresh plan still plans it against the same live state (the
 * fingerprint of the normalized resource) with the same requests; and the fresh plan must not have
 * work the saved plan lacks. Any difference means what was reviewed is no longer what would happen.
 */
export function checkSavedPlan(saved: Plan, fresh: Plan): Refusal[] {
  const freshByAddress = new Map(fresh.changes.map((entry) => [entry.address, entry]));
  const savedByAddress = new Map(saved.changes.map((entry) => [entry.address, entry]));
  const refusals: Refusal[] = [];
  for (const entry of saved.changes.filter(sendsRequests)) {
    const now = freshByAddress.get(entry.address) ?? failedListing(fresh, entry);
    const reason = refusalOf(entry, now);
    if (reason !== undefined) refusals.push({ address: entry.address, reason });
  }
  for (const entry of fresh.changes.filter(sendsRequests)) {
    if (sendsRequests(savedByAddress.get(entry.address))) continue;
    refusals.push({
      address: entry.address,
      reason: `a fresh plan has a ${entry.action} here that the saved plan does not (the live state or the configuration changed)`,
    });
  }
  return refusals;
}

/**
 * The listing a fresh plan could not make that would have held `entry`: a `*` change of its kind and
 * target with an error, in its scope (a repository's hooks) or over its owner (a glob's
 * repositories). Without it, a resource the listing never returned reads as dropped from the
 * configuration.
 */
function failedListing(fresh: Plan, entry: Change): Change | undefined {
  const owner = (scope: string) => scope.split("/")[0];
  return fresh.changes.find(
    (change) =>
      isUnlisted(change) &&
      change.kind === entry.kind &&
      change.target === entry.target &&
      (change.scope === entry.scope || owner(change.scope) === owner(entry.scope)),
  );
}

function refusalOf(entry: Change, now: Change | undefined): string | undefined {
  if (now === undefined) return "it is no longer in the plan (the configuration changed)";
  if (now.error !== undefined) return `it cannot be checked now: ${describeFailure(now.error)}`;
  if (entry.live_fingerprint === undefined) {
    return "the saved plan records no live fingerprint for it";
  }
  if (now.live_fingerprint !== entry.live_fingerprint) {
    return "the live state changed since the plan was made";
  }
  if (stableJson(now.requests) !== stableJson(entry.requests)) {
    return "a fresh plan would send different requests (the configuration changed)";
  }
  return undefined;
}

/**
 * The saved plan as it will be applied: its own changes and requests, held if either the saved plan
 * or the fresh one holds them (a lock taken since the plan was made is honored too).
 */
export function withCurrentHolds(saved: Plan, fresh: Plan): Plan {
  const freshByAddress = new Map(fresh.changes.map((entry) => [entry.address, entry]));
  return {
    ...saved,
    changes: saved.changes.map((entry) => {
      const current = freshByAddress.get(entry.address)?.held;
      if (current !== undefined) return { ...entry, held: current };
      if (entry.held === undefined) return entry;
      return {
        ...entry,
        held: `${entry.held} when the plan was made; make a new plan to apply it`,
      };
    }),
  };
}

/**
 * What apply sends for a saved plan, or why it must not: the saved plan is compared with the fresh
 * plan redacted the way the saved one was written (sensitive values read "(sensitive)" in both),
 * and once they agree, each change sends the fresh plan's requests, which equal the saved ones once
 * redacted and carry the values the saved file could not hold.
 */
export function savedPlanToApply(
  saved: Plan,
  fresh: Plan,
  redactedFresh: Plan,
): { plan: Plan } | { refusals: Refusal[] } {
  const refusals = checkSavedPlan(saved, redactedFresh);
  if (refusals.length > 0) return { refusals };
  const freshByAddress = new Map(
    redactedFresh.changes.map((change, index) => [change.address, fresh.changes[index]!]),
  );
  const plan = withCurrentHolds(saved, redactedFresh);
  return {
    plan: {
      ...plan,
      changes: plan.changes.map((change) => {
        const current = freshByAddress.get(change.address);
        if (current === undefined || change.requests.length === 0) return change;
        // Where it goes and the flag it needs are the fresh plan's, never the file's to loosen.
        const { address, scope, name, requests, step, gate } = current;
        const { step: _step, gate: _gate, ...rest } = change;
        return {
          ...rest,
          address,
          scope,
          name,
          requests,
          ...(step === undefined ? {} : { step }),
          ...(gate === undefined ? {} : { gate }),
        };
      }),
    },
  };
}
