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
import { cappedChanges } from "../engine/removal-caps.js";
import { type Refusal, savedPlanToApply } from "../engine/saved-plan.js";
import { collectSecrets, missingSecrets } from "../engine/secrets.js";
import { TargetFilter } from "../engine/targets.js";
import type { ConnectOptions } from "./connect.js";
import { asSaved, connectFor, load, type LoadingOptions } from "./plan.js";

export interface ApplyOptions extends ConnectOptions, LoadingOptions {
  /** Also apply planned deletes (otherwise they are skipped). */
  allowDelete?: boolean;
  /** The configuration to re-plan, instead of the one the plan records (`plan.config`). */
  config?: readonly string[];
}

/**
 * What became of an apply:
 * - `applied`: the changes were sent; `report` says what happened to each and whether a fresh plan
 *   verified them, and `succeeded` whether everything was applied and verified;
 * - `nothing-to-apply`: the plan creates, updates and deletes nothing;
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
  | { status: "refused"; refusals: Refusal[] }
  | { status: "invalid-config"; errors: ConfigError[] }
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
  if (!loading.ok) return { status: "invalid-config", errors: loading.errors };
  const { loaded } = loading;
  const { state, redactor, env } = loaded;
  const connection = await connectFor(loaded, options, reviewed.shard);
  // A plan made for some addresses only is checked against a fresh plan of the same ones.
  const targets = reviewed.targets ? new TargetFilter(reviewed.targets) : undefined;
  const replan = (rotation: Rotation, deleted?: ChangesByPlace) =>
    planPart(state, connection.readers, reviewed.shard, {
      ...rotation,
      reads: options.reads ?? "auto",
      ...(targets ? { targets } : {}),
      ...(deleted ? { deleted } : {}),
      ...(reviewed.removal_limit ? { removalLimit: reviewed.removal_limit } : {}),
    });
  const fresh = await replan(rotationOf(reviewed));
  const checked = savedPlanToApply(reviewed, fresh, redactor.plan(fresh));
  if ("refusals" in checked) return { status: "refused", refusals: checked.refusals };
  const toApply = checked.plan;
  if (!hasChanges(toApply)) return { status: "nothing-to-apply", plan: asSaved(redactor, toApply) };
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
  const failed = result.outcomes.some((outcome) => outcome.outcome === "failed");
  return {
    status: "applied",
    plan: asSaved(redactor, toApply),
    report,
    // Deletes the removal limit held were asked for and not made: the apply did not succeed.
    succeeded:
      report.verified && !failed && toApply.errors === 0 && cappedChanges(toApply).length === 0,
    ...(result.stopped ? { stopped: result.stopped } : {}),
  };
}
