import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hasChanges, type Plan } from "../../core/plan.js";
import type { Redactor } from "../../core/redact.js";
import { ForgeError } from "../../forge/client.js";
import { renderPlan } from "../../render/index.js";
import { DRIFT_MARKER, hasDrift } from "../drift-issue.js";
import { commentMarker } from "../sticky-comment.js";
import type { CiHost, DriftResult, NoteResult, ReviewedPlan } from "./host.js";
import { planNoteBody } from "./plan-note.js";
import {
  type Gate,
  type GateWording,
  gateReviewed,
  type Refusal,
  refuseUnreviewed,
} from "./review-gate.js";
import { terraformReport } from "./terraform-report.js";

/**
 * The CI steps, on either host: a plan (or drift check) that keeps one sticky note on the change
 * request and, scheduled, one drift issue; and on merge the apply of exactly the plan that note
 * showed. The GitHub Action (action/run.ts) and `forgeplan ci` on GitLab (cli/ci.ts) run these over
 * their host (report/ci/host.ts). A step runs forgeplan's own commands through `job.run`, decides,
 * and returns what happened; each host says it in its own words (annotations and the job summary,
 * or the job log) and sets its own exit code from it.
 */

/** What a forgeplan command line run in-process gives back: at least its exit code. */
export interface CommandRun {
  code: number;
}

export interface StepJob<Run extends CommandRun> {
  /** Runs a forgeplan command line in-process, its output in the job's log. */
  run(argv: string[]): Promise<Run>;
  /** Reads a plan file (engine/merge.ts readPlan: the kinds this forgeplan knows). */
  readPlan(source: { source: string; text: string }): Plan;
  /** Writes a line of the job's log, `forgeplan: ` before it. */
  say(line: string): void;
  redactor: Redactor;
  /** Where the step's commands save the plan (`--out`). */
  planFile: string;
  /** Which sticky note is this configuration's (sticky-comment.ts commentMarker). */
  noteKey: string;
  /** The commit the plan is of, named in the note's header. */
  commit?: string;
  /** Where the whole log is, linked from a note or issue cut to the host's limit. */
  detailsUrl?: string;
  /** Where the plan's counts go in GitLab's Terraform report format, on a host that shows them. */
  terraformReport?: string;
}

/** The plan the step's command saved, if it saved one; its counts to the report file too. */
function savedPlan<Run extends CommandRun>(job: StepJob<Run>): Plan | undefined {
  if (!existsSync(job.planFile)) return undefined;
  const plan = job.readPlan({ source: job.planFile, text: readFileSync(job.planFile, "utf8") });
  if (job.terraformReport !== undefined) writeFileSync(job.terraformReport, terraformReport(plan));
  return plan;
}

/** Where the plan note goes: a change request on a host, or why nowhere (said once a plan is made). */
export type NoteTarget = { host: CiHost; number: number } | { skipped: string };

export type NoteOutcome =
  | { status: "written"; where: string; result: NoteResult }
  /** The host refused the note (a fork's read-only token): whether that fails the step is the host's. */
  | { status: "failed"; where: string; error: ForgeError }
  | { status: "skipped"; reason: string };

export type IssueOutcome =
  | { status: "left"; reason: string }
  | { status: "kept"; result: DriftResult }
  | { status: "failed"; error: ForgeError };

export interface PlanOutcome<Run extends CommandRun> {
  run: Run;
  plan?: Plan;
  note?: NoteOutcome;
  issue?: IssueOutcome;
}

export interface PlanStepOptions {
  /** The host's `plan` or `drift` command line, saving its plan to `job.planFile`. */
  argv: string[];
  /** The note's heading: "forgeplan plan", "forgeplan drift". */
  title: string;
  note?: NoteTarget;
  /**
   * The host whose one drift issue the step keeps. The Action names none: its `drift
   * --report-issue` keeps the issue through the github target's own client (docs/ci.md).
   */
  driftIssue?: CiHost;
}

/**
 * Plans or checks drift; when a plan was made, keeps the change request's sticky note with it and
 * its digest (which the apply on merge compares with), and the drift issue.
 */
export async function planStep<Run extends CommandRun>(
  job: StepJob<Run>,
  options: PlanStepOptions,
): Promise<PlanOutcome<Run>> {
  const run = await job.run(options.argv);
  const plan = savedPlan(job);
  if (plan === undefined) return { run };
  const note =
    options.note === undefined ? undefined : await keepNote(job, plan, options.title, options.note);
  const issue =
    options.driftIssue === undefined ? undefined : await keepIssue(job, plan, options.driftIssue);
  return { run, plan, ...(note !== undefined ? { note } : {}), ...(issue ? { issue } : {}) };
}

async function keepIssue<Run extends CommandRun>(
  job: StepJob<Run>,
  plan: Plan,
  host: CiHost,
): Promise<IssueOutcome> {
  try {
    return await keepDriftIssue(host, plan, job.redactor, job);
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    return { status: "failed", error };
  }
}

async function keepNote<Run extends CommandRun>(
  job: StepJob<Run>,
  plan: Plan,
  title: string,
  target: NoteTarget,
): Promise<NoteOutcome> {
  if ("skipped" in target) return { status: "skipped", reason: target.skipped };
  const { host, number } = target;
  const body = planNoteBody(plan, job.redactor, {
    key: job.noteKey,
    title,
    maxLength: host.bodyLimit,
    ...(job.commit !== undefined ? { commit: job.commit } : {}),
    ...(job.detailsUrl !== undefined ? { detailsUrl: job.detailsUrl } : {}),
  });
  const where = host.changeName(number);
  try {
    const result = await host.upsertPlanNote(number, commentMarker(job.noteKey), body);
    return { status: "written", where, result };
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    return { status: "failed", where, error };
  }
}

/**
 * Opens, updates or closes the host's one drift issue for this plan (also `drift --report-issue`'s).
 * A plan with errors and no drift leaves it as it is: what could not be read may still drift. A
 * host's refusal is thrown (ForgeError).
 */
export async function keepDriftIssue(
  host: CiHost,
  plan: Plan,
  redactor: Redactor,
  links: { commit?: string; detailsUrl?: string },
): Promise<Exclude<IssueOutcome, { status: "failed" }>> {
  const drifted = hasDrift(plan);
  if (!drifted && plan.errors > 0) {
    return { status: "left", reason: "the drift issue is left as it is: the plan has errors" };
  }
  const body = drifted
    ? redactor.redact(
        renderPlan(redactor.plan(plan), "markdown", {
          title: "forgeplan drift",
          maxLength: host.bodyLimit - DRIFT_MARKER.length - 1,
          ...(links.commit !== undefined ? { commit: links.commit } : {}),
          ...(links.detailsUrl !== undefined ? { detailsUrl: links.detailsUrl } : {}),
        }),
      )
    : "";
  const result = await host.reportDrift({
    drifted,
    body,
    resolvedNote: `No drift at ${new Date().toISOString()}: live state matches the desired state again.`,
  });
  return { status: "kept", result };
}

/** How a host words the apply's refusals (review-gate.ts GateWording, less the change's name). */
export interface ApplyWording extends Omit<GateWording, "where"> {
  /** How the log names an accepted re-plan: "accept-replan: true", "--accept-replan". */
  accepted: string;
  /** Why the push's previous commit is unknown: "this run is not a push that says …". */
  notAPush: string;
  /** Where that commit must be: "in the checkout (actions/checkout with fetch-depth: 0)". */
  fullHistory: string;
}

/**
 * Where the apply on merge finds the reviewed plan: the change request whose merge made `sha`, on
 * `host`; or why it cannot look (no token, no commit), which refuses the apply.
 */
export type ReviewLookup =
  | {
      host: CiHost;
      sha: string;
      /** The branch's commit before this push, to plan the same change a partial plan showed. */
      before: string | undefined;
      /** Whether a commit is in the checkout (git). */
      hasRevision(revision: string): boolean;
    }
  | { cannot: string };

export interface ApplyOptions {
  /** undefined: a re-plan is accepted, and the plan made now is applied without a review. */
  review: ReviewLookup | undefined;
  /** The host's `plan` command line, of the change from `revision` when one is given. */
  planArgs(revision: string | undefined): string[];
  /** `apply`'s flags: the connection's before `--auto-approve`, the --allow-* ones, then output. */
  apply: { connection: string[]; allow: string[]; output: string[] };
  /** A plan with errors is applicable: the rest of it is applied (--allow-plan-errors). */
  allowPlanErrors: boolean;
  wording: ApplyWording;
}

export interface ApplyOutcome<Run extends CommandRun> {
  planned: Run;
  plan?: Plan;
  applied?: Run;
  /** Why nothing was applied though the plan had changes: not the plan that was reviewed. */
  refused?: Refusal;
  /** `apply`'s: 0 applied (or nothing to apply), 1 refused or failed; `plan`'s when not applied. */
  code: number;
}

type Review = {
  go: true;
  reviewed: Extract<ReviewedPlan, { found: true }>;
  where: string;
  sha: string;
  /** The push's previous commit: the reviewed plan was of a change, so the same change is planned. */
  revision?: string;
};

/**
 * On merge: finds the reviewed plan first (a plan of a change is compared with the same change),
 * plans, and applies that plan, as saved, only when it is the one the merged change request's note
 * showed (apply refuses it again if live state moves before it is sent). A refusal waits for the
 * plan, so the host can show the plan that was not applied, and a plan with nothing to apply
 * refuses nothing.
 */
export async function applyStep<Run extends CommandRun>(
  job: StepJob<Run>,
  options: ApplyOptions,
): Promise<ApplyOutcome<Run>> {
  const { wording } = options;
  const review =
    options.review === undefined
      ? undefined
      : await lookUpReview(options.review, commentMarker(job.noteKey), wording);
  const planned = await job.run(
    options.planArgs(review?.go === true ? review.revision : undefined),
  );
  const plan = savedPlan(job);
  const applicable =
    planned.code === 2 ||
    (options.allowPlanErrors && plan !== undefined && plan.errors > 0 && hasChanges(plan));
  if (!applicable || plan === undefined) {
    return { planned, ...(plan !== undefined ? { plan } : {}), code: planned.code };
  }
  const gate: Gate =
    review === undefined
      ? { go: true, said: `${wording.accepted}: applying the plan made now, reviewed or not` }
      : review.go
        ? gateReviewed(review.reviewed, plan, review.sha, { ...wording, where: review.where })
        : review;
  if (!gate.go) return { planned, plan, refused: gate, code: 1 };
  job.say(gate.said);
  const { connection, allow, output } = options.apply;
  const applied = await job.run([
    "apply",
    job.planFile,
    ...connection,
    "--auto-approve",
    ...allow,
    ...(plan.partial !== undefined ? ["--allow-partial"] : []),
    ...output,
  ]);
  return { planned, plan, applied, code: applied.code };
}

/**
 * The merged change request's reviewed plan: the digest its sticky note for this note key carries.
 * A digest of a change (the note showed `plan --changed-from` the base) is compared with the change
 * the push made: planned from the commit before it.
 */
async function lookUpReview(
  lookup: ReviewLookup,
  marker: string,
  wording: ApplyWording,
): Promise<Review | Refusal> {
  const refuse = (why: string) => refuseUnreviewed(why, wording.override);
  if ("cannot" in lookup) return refuse(lookup.cannot);
  const { host, sha, before } = lookup;
  let reviewed: ReviewedPlan;
  try {
    reviewed = await host.reviewedPlan(sha, marker);
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    return refuse(
      `could not read the ${wording.changeKind} of commit ${sha.slice(0, 12)}: ${error.message}`,
    );
  }
  if (!reviewed.found) return refuse(reviewed.reason);
  const where = host.changeName(reviewed.number);
  if (reviewed.digest.partial !== true) return { go: true, reviewed, where, sha };
  if (before === undefined) {
    return refuse(`${where} showed the plan of its change, and ${wording.notAPush}`);
  }
  if (!lookup.hasRevision(before)) {
    return refuse(
      `${where} showed the plan of its change; planning the same change needs the commit before the push, ${before.slice(0, 12)}, ${wording.fullHistory}`,
    );
  }
  return { go: true, reviewed, where, sha, revision: before };
}
