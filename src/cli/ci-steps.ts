import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Plan } from "../core/plan.js";
import { readPlan } from "../engine/merge.js";
import { ForgeError } from "../forge/client.js";
import { renderPlan } from "../render/index.js";
import type { CiHost } from "../report/ci/host.js";
import { planNoteBody } from "../report/ci/plan-note.js";
import { type Gate, gateReviewed, refuseUnreviewed } from "../report/ci/review-gate.js";
import { terraformReport } from "../report/ci/terraform-report.js";
import { DRIFT_MARKER, hasDrift } from "../report/drift-issue.js";
import { commentMarker } from "../report/sticky-comment.js";
import type { CommandIO } from "./io.js";

/**
 * The CI steps over a code host (report/ci/host.ts): plan with one sticky note on the change
 * request, apply on merge only what that note showed, and the scheduled drift check's issue. Each
 * runs forgeplan's own commands in-process (`run`), reads the plan they saved, and talks to the host
 * only through `host`.
 */

export interface StepContext {
  io: CommandIO;
  host: CiHost;
  /** Runs a forgeplan command line in-process; its output goes to the job log. */
  run(argv: string[]): Promise<number>;
  /** The -c flags and the connection flags every command of the step takes. */
  configArgs: string[];
  /**
   * The --target flags of the plan and the drift check; a saved plan records its targets, so the
   * apply of it takes none.
   */
  targetArgs: string[];
  /** Where the step's plan is saved. */
  planFile: string;
  /** Which sticky note is this configuration's (report/sticky-comment.ts commentMarker). */
  noteKey: string;
  commit?: string;
  /** Where the whole log is, linked from a note cut to the host's limit. */
  logUrl?: string;
  /** Where GitLab's Terraform report (`artifacts:reports:terraform`) goes, if anywhere. */
  terraformReport?: string;
}

function say(ctx: StepContext, line: string): void {
  ctx.io.stderr.write(`forgeplan: ${line}\n`);
}

function savedPlan(ctx: StepContext): Plan | undefined {
  if (!existsSync(ctx.planFile)) return undefined;
  return readPlan({ source: ctx.planFile, text: readFileSync(ctx.planFile, "utf8") });
}

function writeReport(ctx: StepContext, plan: Plan | undefined): void {
  if (ctx.terraformReport === undefined || plan === undefined) return;
  writeFileSync(ctx.terraformReport, terraformReport(plan));
}

/** The plan as markdown for the host, within its limit, every sensitive value redacted. */
function markdown(ctx: StepContext, plan: Plan, title: string, room: number) {
  const { redactor } = ctx.io;
  return redactor.redact(
    renderPlan(redactor.plan(plan), "markdown", {
      title,
      maxLength: room,
      ...(ctx.commit !== undefined ? { commit: ctx.commit } : {}),
      ...(ctx.logUrl !== undefined ? { detailsUrl: ctx.logUrl } : {}),
    }),
  );
}

/** A host's refusal is the step's failure, said in one line; anything else is a bug. */
async function atHost<T>(ctx: StepContext, what: string, call: () => Promise<T>) {
  try {
    return { ok: true as const, value: await call() };
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    say(ctx, `${what}: ${error.message}`);
    return { ok: false as const };
  }
}

function scopeArgs(revision: string | undefined): string[] {
  return revision === undefined ? [] : ["--changed-from", revision];
}

/**
 * Plans; on a change request, keeps its one sticky note with the plan and the plan's digest (which
 * the apply on merge compares with). Exit codes are `plan`'s: 0 no changes, 2 changes, 1 errors;
 * a note that could not be written fails the step.
 */
export async function planStep(
  ctx: StepContext,
  change: { number: number | undefined; revision: string | undefined },
): Promise<number> {
  const code = await ctx.run([
    "plan",
    ...ctx.configArgs,
    ...ctx.targetArgs,
    ...scopeArgs(change.revision),
    "--out",
    ctx.planFile,
  ]);
  const plan = savedPlan(ctx);
  writeReport(ctx, plan);
  if (plan === undefined) return code;
  if (change.number === undefined) {
    say(ctx, "not a merge-request pipeline: the plan is in the job log only");
    return code;
  }
  const body = planNoteBody(plan, ctx.io.redactor, {
    key: ctx.noteKey,
    title: "forgeplan plan",
    maxLength: ctx.host.bodyLimit,
    ...(ctx.commit !== undefined ? { commit: ctx.commit } : {}),
    ...(ctx.logUrl !== undefined ? { detailsUrl: ctx.logUrl } : {}),
  });
  const where = ctx.host.changeName(change.number);
  const written = await atHost(ctx, `could not write the plan note on ${where}`, () =>
    ctx.host.upsertPlanNote(change.number!, commentMarker(ctx.noteKey), body),
  );
  if (!written.ok) return 1;
  say(ctx, `plan note ${written.value.action} on ${where}: ${written.value.url}`);
  if (written.value.warning !== undefined) say(ctx, `warning: ${written.value.warning}`);
  return code;
}

export interface ApplyOptions {
  sha: string | undefined;
  /** The branch's commit before this push, to plan the same change a partial plan showed. */
  before: string | undefined;
  /** Whether a commit is in the checkout (git). */
  hasRevision(revision: string): boolean;
  acceptReplan: boolean;
  /** How the log tells a user to accept a plan nobody reviewed. */
  override: string;
  /** apply's --allow-* flags. */
  allow: string[];
}

/**
 * On merge: plans, and applies that plan only when it is the one the merged change request's note
 * showed. Exit codes are `apply`'s: 0 applied (or nothing to apply), 1 refused or failed.
 */
export async function applyStep(ctx: StepContext, options: ApplyOptions): Promise<number> {
  const marker = commentMarker(ctx.noteKey);
  let review: Extract<Awaited<ReturnType<CiHost["reviewedPlan"]>>, { found: true }> | undefined;
  let revision: string | undefined;
  if (!options.acceptReplan) {
    const found = await lookUp(ctx, options, marker);
    if (!found.go) {
      say(ctx, `apply: ${found.message}`);
      return 1;
    }
    review = found.review;
    revision = found.revision;
  }
  const planned = await ctx.run([
    "plan",
    ...ctx.configArgs,
    ...ctx.targetArgs,
    ...scopeArgs(revision),
    "--out",
    ctx.planFile,
  ]);
  const plan = savedPlan(ctx);
  writeReport(ctx, plan);
  if (planned !== 2 || plan === undefined) return planned === 2 ? 1 : planned;
  const gate: Gate =
    review === undefined
      ? { go: true, said: "--accept-replan: applying the plan made now, reviewed or not" }
      : gateReviewed(review, plan, options.sha ?? "", {
          where: ctx.host.changeName(review.number),
          override: options.override,
          planShownIn: "the job log",
          changeKind: "merge request",
        });
  if (!gate.go) {
    say(ctx, `apply: ${gate.message}`);
    return 1;
  }
  say(ctx, gate.said);
  return await ctx.run([
    "apply",
    ctx.planFile,
    ...ctx.configArgs,
    "--auto-approve",
    ...options.allow,
    ...(plan.partial !== undefined ? ["--allow-partial"] : []),
  ]);
}

type LookedUp =
  | {
      go: true;
      review: Extract<Awaited<ReturnType<CiHost["reviewedPlan"]>>, { found: true }>;
      revision?: string;
    }
  | { go: false; message: string };

async function lookUp(ctx: StepContext, options: ApplyOptions, marker: string): Promise<LookedUp> {
  const refuse = (why: string) => refuseUnreviewed(why, options.override);
  if (options.sha === undefined) {
    return refuse("CI_COMMIT_SHA is needed to find the merge request this commit belongs to");
  }
  let reviewed: Awaited<ReturnType<CiHost["reviewedPlan"]>>;
  try {
    reviewed = await ctx.host.reviewedPlan(options.sha, marker);
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    return refuse(
      `could not read the merge request of commit ${options.sha.slice(0, 12)}: ${error.message}`,
    );
  }
  if (!reviewed.found) return refuse(reviewed.reason);
  if (reviewed.digest.partial !== true) return { go: true, review: reviewed };
  const where = ctx.host.changeName(reviewed.number);
  if (options.before === undefined) {
    return refuse(
      `${where} showed the plan of its change, and this pipeline is not a push that says which commit it came after (CI_COMMIT_BEFORE_SHA)`,
    );
  }
  if (!options.hasRevision(options.before)) {
    return refuse(
      `${where} showed the plan of its change; planning the same change needs the commit before the push, ${options.before.slice(0, 12)}, in the clone (GIT_DEPTH: 0)`,
    );
  }
  return { go: true, review: reviewed, revision: options.before };
}

/**
 * The scheduled drift check: plans as `drift` does and keeps the host's one drift issue. Exit codes
 * are `drift`'s: 0 none, 2 drift, 1 errors (an issue that could not be kept is an error).
 */
export async function driftStep(ctx: StepContext): Promise<number> {
  const code = await ctx.run([
    "drift",
    ...ctx.configArgs,
    ...ctx.targetArgs,
    "--out",
    ctx.planFile,
  ]);
  const plan = savedPlan(ctx);
  writeReport(ctx, plan);
  if (plan === undefined) return code;
  const drifted = hasDrift(plan);
  if (!drifted && plan.errors > 0) {
    say(ctx, "the drift issue is left as it is: the plan has errors");
    return code;
  }
  const room = ctx.host.bodyLimit - DRIFT_MARKER.length - 1;
  const kept = await atHost(ctx, "could not keep the drift issue", () =>
    ctx.host.reportDrift({
      drifted,
      body: drifted ? markdown(ctx, plan, "forgeplan drift", room) : "",
      resolvedNote: `No drift at ${new Date().toISOString()}: live state matches the desired state again.`,
    }),
  );
  if (!kept.ok) return 1;
  const result = kept.value;
  if (result.action !== "none") {
    say(ctx, `drift issue #${result.number} ${result.action}: ${result.url}`);
  }
  return code;
}
