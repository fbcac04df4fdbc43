import type { ConfigError } from "../config/errors.js";
import {
  type ApplyReport,
  type ChangesByPlace,
  hasChanges,
  type Plan,
  type Rotation,
  rotationOf,
} from "../core/plan.js";
import {
  applicableChanges,
  applyPlan,
  deletesApplied,
  type StopReason,
  verificationOf,
} from "../engine/apply.js";
import { planPart } from "../engine/plan-part.js";
import { type Refusal, savedPlanToApply } from "../engine/saved-plan.js";
import { collectSecrets, missingSecrets } from "../engine/secrets.js";
import { TargetFilter } from "../engine/targets.js";
import type { ConnectOptions } from "./connect.js";
import { asSaved, connectFor, load, type LoadingOptions } from "./plan.js";

export interface ApplyOptions extends ConnectOptions, LoadingOptions {
  /** Also apply planned deletes (otherwise they are skipped). */
  allowDelete?: boolean;
  /** Also apply planned changes of a repository's visibility (otherwise they are skipped). */
  allowVisibility?: boolean;
  /** Also create the repositories planned to be created (otherwise they are skipped). */
  allowCreate?: boolean;
  /**
   * Also apply GitLab protections that change only by unprotecting and protecting again, open in
   * between (otherwise they are skipped).
   */
  allowProtectionGap?: boolean;
  /**
   * Apply the rest of a plan some of whose changes could not be planned (`--allow-plan-errors`);
   * otherwise such a plan applies nothing (`plan-errors`).
   */
  allowPlanErrors?: boolean;
  /** The configuration to re-plan, instead of the one the plan records (`plan.config`). */
  config?: readonly string[];
}

/**
 * What became of an apply:
 * - `applied`: the changes were sent; `report` says what happened to each and whether a fresh plan
 *   verified them, and `succeeded` whether every change of the plan was applied and verified
 *   (none failed, held, skipped or unplanned: the CLI's exit 0);
 * - `nothing-to-apply`: the plan creates, updates and deletes nothing;
 * - `plan-errors`: some changes could not be planned (`plan.errors`), so nothing was sent; the
 *   plan's changes say why (`change.error`); `allowPlanErrors` applies the rest;
 * - `refused`: a fresh plan no longer agrees with the plan given (live state or configuration
 *   moved): nothing was sent, and `refusals` name each change and why;
 * - `invalid-config`: the configuration has errors; nothing was read;
 * - `missing-secrets`: the plan sends secrets from variables that are not set; nothing was sent.
 */
export type ApplyResult =
  | {
      status: "applied";
      /** The plan as it was applied, sensitive values redacted. */
      plan: Plan;
      report: ApplyReport;
      succeeded: boolean;
      /** Set when a rate-limit wait or the signal stopped the run before every change was tried. */
      stopped?: { reason: StopReason; notAttempted: number; unanswered: number };
    }
  | { status: "nothing-to-apply"; plan: Plan }
  | { status: "plan-errors"; plan: Plan }
  | { status: "refused"; refusals: Refusal[] }
  | { status: "invalid-config"; errors: ConfigError[]; problems: number }
  | { status: "missing-secrets"; variables: string[] };

/**
 * Applies a plan exactly as it was made (by `plan()`, or read from a saved plan with
 * `readPlanFile`): the configuration it records is planned again, every change must agree with the
 * fresh plan — the same live state, the same requests, nothing new — and then the changes are sent,
 * paced, and verified by one more plan. Anything that moved refuses the whole plan.
 */
export async function apply(reviewed: Plan, options: ApplyOptions = {}): Promise<ApplyResult> {
  if (reviewed.partial !== undefined) {
    throw new TypeError(
      `the plan holds only what changed since ${reviewed.partial.changed_from} (plan --changed-from): apply it with forgeplan apply --allow-partial, which plans the same change again from git`,
    );
  }
  const configPaths = options.config ?? reviewed.config;
  if (configPaths === undefined) {
    throw new TypeError(
      "the plan records no configuration (plan.config): pass the files with options.config",
    );
  }
  const loading = load(configPaths, options);
  if (!loading.ok) {
    return { status: "invalid-config", errors: loading.errors, problems: loading.problems };
  }
  const { loaded } = loading;
  const { state, redactor, env } = loaded;
  const connection = await connectFor(loaded, options, reviewed.shard);
  // A plan made for some addresses only is checked against a fresh plan of the same ones.
  const targets = reviewed.targets ? new TargetFilter(reviewed.targets) : undefined;
  const replan = (rotation: Rotation, deleted?: ChangesByPlace) =>
    planPart(state, connection.readers, reviewed.shard, {
      ...rotation,
      ...(options.reads === undefined ? {} : { reads: options.reads }),
      ...(targets ? { targets } : {}),
      ...(deleted ? { deleted } : {}),
      ...(reviewed.removal_limit ? { removalLimit: reviewed.removal_limit } : {}),
    });
  const fresh = await replan(rotationOf(reviewed));
  const checked = savedPlanToApply(reviewed, fresh, redactor.plan(fresh));
  if ("refusals" in checked) return { status: "refused", refusals: checked.refusals };
  const toApply = checked.plan;
  if (!hasChanges(toApply)) return { status: "nothing-to-apply", plan: asSaved(redactor, toApply) };
  if (toApply.errors > 0 && options.allowPlanErrors !== true) {
    return { status: "plan-errors", plan: asSaved(redactor, toApply) };
  }
  const secrets = collectSecrets(state);
  const variables = missingSecrets(
    applicableChanges(toApply).flatMap((change) => change.requests.map((request) => request.body)),
    secrets,
    env,
  );
  if (variables.length > 0) return { status: "missing-secrets", variables };
  const result = await applyPlan({
    plan: toApply,
    clients: connection.clients,
    allowDelete: options.allowDelete === true,
    allowed: [
      ...(options.allowVisibility === true ? (["visibility"] as const) : []),
      ...(options.allowCreate === true ? (["create"] as const) : []),
      ...(options.allowProtectionGap === true ? (["protection_gap"] as const) : []),
    ],
    secrets,
    env,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  // Verified without rotating: a rotated secret must now plan as no change, like everything else.
  const verification = result.stopped
    ? undefined
    : await replan({}, deletesApplied(toApply, result.outcomes));
  const checks = verification && verificationOf(result.outcomes, verification);
  const report: ApplyReport = {
    // A failure's message may quote what the service echoed of a request.
    outcomes: redactor.redactValue(result.outcomes),
    ...(verification ? { verification: asSaved(redactor, verification) } : {}),
    verified: checks?.verified === true,
    // A reason quotes the re-plan's errors, which may quote what the service echoed.
    ...(checks && checks.unchecked.length > 0
      ? { unchecked: redactor.redactValue(checks.unchecked) }
      : {}),
  };
  // One rule, as the CLI's exit code: anything planned and not applied — failed, held (the removal
  // limit, a lock), skipped (a gate not opened), not planned — is no success.
  const allApplied = result.outcomes.every((outcome) => outcome.outcome === "applied");
  return {
    status: "applied",
    plan: asSaved(redactor, toApply),
    report,
    succeeded: report.verified && allApplied && toApply.errors === 0,
    ...(result.stopped ? { stopped: result.stopped } : {}),
  };
}
