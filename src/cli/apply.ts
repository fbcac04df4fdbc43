import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type {
  ApplyReport,
  Change,
  ChangeOutcome,
  ChangesByPlace,
  Gate,
  Plan,
  Rotation,
} from "../core/plan.js";
import { GATES, hasChanges, rotationOf } from "../core/plan.js";
import { archivedCause, allowedGates } from "./lifecycle-flags.js";
import { gateOpen, gateRefusal } from "../engine/gates.js";
import {
  type ApplyResult,
  applicableChanges,
  applyPlan,
  deletesApplied,
  verificationOf,
} from "../engine/apply.js";
import { PlanFileError, readPlan } from "../engine/merge.js";
import { cappedChanges } from "../engine/removal-caps.js";
import { savedPlanToApply } from "../engine/saved-plan.js";
import { missingSecrets } from "../engine/secrets.js";
import type { ForgeClient } from "../forge/client.js";
import { renderApplyReport } from "../render/index.js";
import { describeFailure } from "../core/failure-text.js";
import { plural, remainingChanges } from "../render/wording.js";
import { configHint, looksLikeConfig, parseFlags } from "./args.js";
import { type Command, CliError, type CliIO, type CommandIO } from "./io.js";
import {
  colorFlag,
  colorHelp,
  parseFormat,
  printApplyJson,
  printPlan,
  useColor,
} from "./output.js";
import { clockTime, Progress, realEvery, tightestWindow } from "./progress.js";
import { parseReads, readsFlag, readsHelp } from "./reads.js";
import { raisedLimit, removalLimitFlags, removalLimitHelp } from "./removal-limit.js";
import { loadStateAt } from "./revision.js";
import { rotationFlags, rotationHelp, rotationOption } from "./rotation.js";
import {
  type ConnectionFlags,
  configPaths,
  connectionFlags,
  connectionHelp,
  loadState,
  openSession,
} from "./session.js";
import {
  planChanges,
  planPart,
  shardClientOptions,
  shardOption,
  targetOption,
} from "./sharding.js";

/**
 * The question asks about what will be sent: a held change and, without --allow-delete, a delete
 * are planned but not applied, so they are named after the counts, not in them.
 */
export function confirmationQuestion(
  plan: Plan,
  allowDelete: boolean,
  allowed: readonly Gate[] = [],
): string {
  const changes = applicableChanges(plan);
  const closed = (change: Change) => !gateOpen(change, allowed);
  const count = (action: string) =>
    changes.filter(
      (change) =>
        change.action === action &&
        !change.held &&
        !closed(change) &&
        (allowDelete || action !== "delete"),
    ).length;
  const held = changes.filter((change) => change.held).length;
  const skippedDeletes = allowDelete
    ? 0
    : changes.filter((change) => change.action === "delete" && !change.held).length;
  const gated = GATES.flatMap((gate) => {
    const skipped = changes.filter((change) => change.gate === gate && closed(change)).length;
    return skipped > 0 ? [`${skipped} skipped: ${gateRefusal(gate)}`] : [];
  });
  const notes = [
    ...(skippedDeletes > 0
      ? [`${skippedDeletes} planned delete(s) skipped: they need --allow-delete`]
      : []),
    ...gated,
    ...(held > 0 ? [`${held} held`] : []),
  ];
  return (
    `Apply ${count("create")} create(s), ${count("update")} update(s), ${count("delete")} delete(s)?` +
    `${notes.length > 0 ? ` (${notes.join("; ")})` : ""} Only 'yes' is accepted: `
  );
}

async function confirm(io: CliIO, question: string, autoApprove: boolean): Promise<void> {
  if (autoApprove) return;
  if (!io.stdinIsTTY || !io.prompt) {
    throw new CliError(
      "apply: refusing to apply without confirmation: stdin is not a terminal (pass --auto-approve)",
    );
  }
  const answer = await io.prompt(question);
  if (answer.trim() !== "yes") throw new CliError("apply: cancelled, nothing was applied");
}

function readSavedPlan(io: CliIO, file: string): Plan {
  if (looksLikeConfig(file)) {
    throw new CliError(
      `apply: ${configHint(file)}; a file given alone is a saved plan (plan --out)`,
    );
  }
  let text: string;
  try {
    text = readFileSync(resolve(io.cwd, file), "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw new CliError(`apply: ${file}: ${missing ? "no such file" : "cannot be read"}`);
  }
  try {
    return readPlan({ source: file, text });
  } catch (error) {
    if (error instanceof PlanFileError) throw new CliError(`apply: ${error.message}`);
    throw error;
  }
}

/** The configuration to re-plan: -c when given, else the files the saved plan records. */
function configFlags(flags: ConnectionFlags, saved: Plan | undefined, file: string | undefined) {
  if (saved === undefined || flags.config?.length) return flags;
  if (saved.config === undefined) {
    throw new CliError(
      `apply: ${file} does not record the configuration it was made from; pass it with -c FILE`,
    );
  }
  return { ...flags, config: saved.config };
}

/**
 * A saved plan may be applied only if a fresh plan agrees with it change by change; otherwise every
 * refused change is named on stderr and nothing is applied.
 */
function checked(io: CommandIO, saved: Plan, fresh: Plan, file: string): Plan {
  const result = savedPlanToApply(saved, fresh, io.redactor.plan(fresh));
  if ("plan" in result) return result.plan;
  const { refusals } = result;
  for (const refusal of refusals) {
    io.stderr.write(`forgeplan: apply: refused ${refusal.address}: ${refusal.reason}\n`);
  }
  const count = refusals.length;
  throw new CliError(
    `apply: ${file} no longer matches what it would do now: ${count} change${count === 1 ? "" : "s"} refused; ` +
      "nothing was applied (make a new plan)",
  );
}

function unplanned(plan: Plan): string {
  return `${plural(plan.errors, "change")} could not be planned, so ${plan.errors === 1 ? "it was" : "they were"} not applied (the plan above says why)`;
}

/**
 * Everything of the plan a finished apply did not apply, in one line (the report above has the
 * detail), each reason with its count: failed changes, what verification still found, deletes the
 * removal limit held, changes held or skipped (a flag not given), changes that could not be planned,
 * and with --fail-on-archived the archived ones; undefined when everything was applied and
 * verified. Any of them makes apply exit 1: one rule (docs/commands.md, "Exit codes").
 */
function notApplied(
  outcomes: readonly ChangeOutcome[],
  report: ApplyReport,
  plan: Plan,
  flags: { allowPlanErrors: boolean; failOnArchived: boolean },
): string | undefined {
  const failed = outcomes.filter((outcome) => outcome.outcome === "failed");
  const capped = new Set(cappedChanges(plan).map((change) => change.address));
  const grouped = (outcome: "held" | "skipped") => {
    const byReason = new Map<string, number>();
    for (const item of outcomes) {
      if (item.outcome !== outcome || capped.has(item.address)) continue;
      const reason = item.message ?? outcome;
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    }
    return [...byReason].map(
      ([reason, count]) => `${plural(count, "change")} ${outcome}: ${reason}`,
    );
  };
  const parts = [
    ...(failed.length > 0 ? [failedCause(failed)] : [verificationCause(outcomes, report)]),
    heldRemovals(plan),
    ...grouped("held"),
    ...grouped("skipped"),
    plan.errors > 0
      ? `${unplanned(plan)}${flags.allowPlanErrors ? "; the rest was applied (--allow-plan-errors)" : ""}`
      : undefined,
    flags.failOnArchived ? archivedCause(plan) : undefined,
  ].filter((part): part is string => part !== undefined);
  return parts.length === 0 ? undefined : parts.join("; ");
}

function failedCause(failed: readonly ChangeOutcome[]): string {
  const [first] = failed as [ChangeOutcome];
  const more = failed.length > 1 ? `, and ${failed.length - 1} more` : "";
  return `${plural(failed.length, "change")} failed: ${first.address}: ${describeFailure(first)}${more}`;
}

/** What the verifying re-plan still found for what was applied, or could not check; undefined: none. */
function verificationCause(
  outcomes: readonly ChangeOutcome[],
  report: ApplyReport,
): string | undefined {
  if (!report.verified) {
    const unchecked = (report.unchecked ?? []).map((entry) => entry.address);
    const uncheckedSet = new Set(unchecked);
    const applied = new Set(
      outcomes.filter((outcome) => outcome.outcome === "applied").map((outcome) => outcome.address),
    );
    const remaining = remainingChanges(report.verification)
      .map((change) => change.address)
      .filter((address) => applied.has(address) && !uncheckedSet.has(address));
    const parts = [
      ...(remaining.length > 0 || unchecked.length === 0
        ? [
            `the re-plan still shows ${plural(remaining.length, "change")} for what was applied${remaining.length > 0 ? `: ${remaining.join(", ")}` : ""}`,
          ]
        : []),
      ...(unchecked.length > 0
        ? [
            `the re-plan could not check ${plural(unchecked.length, "applied change")} (the report above says why): ${unchecked.join(", ")}`,
          ]
        : []),
    ];
    return `not verified: ${parts.join("; ")}`;
  }
  return undefined;
}

/**
 * The deletes the removal limit held, in one line: how many, where, the share, and what raises the
 * limit (the held reason of the first collection says it); undefined when it held none.
 */
function heldRemovals(plan: Plan): string | undefined {
  const held = cappedChanges(plan);
  const [first] = held;
  if (first === undefined) return undefined;
  const where =
    first.capped?.by === "plan" ? "the plan" : (first.removal?.collection ?? first.address);
  const places = new Set(held.map((change) => change.removal?.collection ?? change.address));
  const more = places.size > 1 ? ` (and in ${plural(places.size - 1, "more collection")})` : "";
  return (
    `${plural(held.length, "delete")} held by the removal limit and not applied, in ${where}: ${first.held}${more}; ` +
    "--allow-delete alone does not apply them"
  );
}

function count(outcomes: readonly ChangeOutcome[], outcome: ChangeOutcome["outcome"]): number {
  return outcomes.filter((o) => o.outcome === outcome).length;
}

/** Where a run stopped early, and how to pick up exactly the remainder. */
function resumeHint(
  outcomes: readonly ChangeOutcome[],
  stopped: NonNullable<ApplyResult["stopped"]>,
  savedFile: string | undefined,
): string {
  const { reason } = stopped;
  const applied = outcomes.filter((o) => o.outcome === "applied").length;
  const failed = outcomes.filter((o) => o.outcome === "failed").length;
  const counts =
    `${applied} applied, ${failed} failed, ${stopped.notAttempted} not attempted` +
    (stopped.unanswered > 0 ? `, ${stopped.unanswered} without an answer` : "");
  const after = reason.kind === "rate-limit" ? ` after ${clockTime(reason.error.resetAt)} UTC` : "";
  const next =
    savedFile === undefined
      ? `re-run the same command${after} to apply the rest: the plan is recomputed from live state, so only what is left is sent`
      : `make a new plan${after} and apply it: what was applied no longer matches ${savedFile}`;
  const head =
    reason.kind === "rate-limit" ? `apply stopped: ${reason.error.message}` : "apply interrupted";
  const longer = reason.kind === "rate-limit" ? " (or allow a longer wait with --max-wait)" : "";
  return `forgeplan: ${head}. ${counts}; ${next}${longer}\n`;
}

export const flags = {
  ...connectionFlags,
  ...colorFlag,
  ...readsFlag,
  format: { type: "string" },
  "auto-approve": { type: "boolean" },
  "allow-delete": { type: "boolean" },
  "allow-visibility": { type: "boolean" },
  "allow-create": { type: "boolean" },
  "allow-protection-gap": { type: "boolean" },
  "fail-on-archived": { type: "boolean" },
  shard: { type: "string" },
  "shard-share": { type: "string" },
  "allow-partial": { type: "boolean" },
  "allow-plan-errors": { type: "boolean" },
  ...rotationFlags,
  target: { type: "string", multiple: true },
  ...removalLimitFlags,
  help: { type: "boolean", short: "h" },
} as const;

export const help = `usage: forgeplan apply [-c FILE|DIR]... [--auto-approve] [--allow-delete] [--allow-visibility] [--allow-create] [--allow-protection-gap] [--format FORMAT]
       forgeplan apply PLAN.json [-c FILE|DIR]... [--auto-approve] [--allow-delete]

Plans (or checks a saved plan against a fresh plan), asks for confirmation, applies, then re-reads
and verifies that nothing is left to do.
  PLAN.json                apply exactly this saved plan (from 'plan --out'), refused if live state
                           moved; its configuration is the one it records unless -c is given
${connectionHelp()}  --auto-approve           apply without asking (required when stdin is not a terminal)
  --allow-delete           also apply planned deletes (otherwise they are skipped)
  --allow-visibility       also apply planned changes of a repository's visibility
  --allow-create           also create the repositories and projects planned to be created (settings.create)
  --allow-protection-gap   also apply GitLab protections changed by unprotecting and protecting
                           again (a tier whose PATCH cannot change them): open in between
  --allow-plan-errors      apply the rest of a plan some of whose changes could not be planned
                           (otherwise such a plan applies nothing)
  --fail-on-archived       exit 1 when a change was not applied because its repository is archived
  --format FORMAT          text (default), markdown or json, for the plan and the report; json is
                           one document {plan, outcomes, verification, verified} and needs
                           --auto-approve
${colorHelp}${readsHelp}  --shard K/N              apply only this shard's part (same partition as 'plan --shard'), at 1/N
                           of the token's limits
  --shard-share F          this shard's share of the token's limits instead of 1/N (0.5 or 1/2)
  --allow-partial          apply a saved plan of what changed since a revision ('plan --changed-from'),
                           checked against a fresh plan made the same way
${rotationHelp}  --target ADDRESS         apply only what this address matches (repeatable; globs: github/acme/api/*,
                           */branch_protection/main); only what the targets reach is read
${removalLimitHelp}  -h, --help               this text
Exit 0 when every change of the plan was applied and verified; 1 when anything planned was not:
failed, not verified, held (the removal limit, a running migration), skipped (a flag not given), or
not planned (errors).
`;

/**
 * `forgeplan apply [-c FILE… | PLAN.json]`: plan (or check a saved plan against a fresh one),
 * confirm, apply, then re-read and verify; exit 0 only when everything was applied and verified.
 */
export const apply: Command = async (argv, io) => {
  const { values, positionals } = parseFlags("apply", argv, flags, { positionals: true });
  if (values.help) {
    io.stdout.write(help);
    return 0;
  }
  if (positionals.length > 1) {
    throw new CliError(
      `apply: expected at most one saved plan file, got ${positionals.length} arguments`,
    );
  }
  const format = parseFormat("apply", values.format);
  // As terraform's -json: the output is one document, with no plan shown to answer a prompt.
  if (format === "json" && values["auto-approve"] !== true) {
    throw new CliError(
      "apply: --format json asks no question: pass --auto-approve (review the plan first with 'forgeplan plan')",
    );
  }
  const color = useColor(io, values["no-color"]);
  const savedFile = positionals[0];
  const saved = savedFile === undefined ? undefined : readSavedPlan(io, savedFile);
  // A saved shard plan is checked against a fresh plan of its own shard.
  const shard = shardOption("apply", values.shard) ?? saved?.shard;
  const partial = saved?.partial;
  if (partial !== undefined && values["allow-partial"] !== true) {
    throw new CliError(
      `apply: ${savedFile} holds only what changed since ${partial.changed_from} (plan --changed-from), ` +
        "not the whole configuration: apply it with --allow-partial, or make a whole plan",
    );
  }
  if (partial !== undefined && shard !== undefined) {
    throw new CliError("apply: a plan made with --changed-from is applied whole; drop --shard");
  }
  const connection = configFlags(values, saved, savedFile);
  const reads = parseReads("apply", values.reads);

  const clients: ForgeClient[] = [];
  const progress = new Progress({
    output: io.stderr,
    now: Date.now,
    every: realEvery,
    budget: () => tightestWindow(clients.map((client) => client.budget())),
  });
  // Wait lines and errors go through the progress output, so they never break its live line.
  const shown: CliIO = { ...io, stderr: progress.output };
  const state = loadState("apply", connection, shown);
  // A partial plan is checked against a fresh plan of the same change, at the same revision.
  const base =
    partial === undefined
      ? undefined
      : loadStateAt("apply", partial.changed_from, configPaths(connection), shown);
  const session = await openSession(
    "apply",
    connection,
    shown,
    state,
    [],
    shardClientOptions("apply", shard, values["shard-share"]),
  );
  clients.push(...session.clients.values());
  session.onEvent((event) => progress.event(event));
  // A saved plan is checked against a fresh plan made the same way it was.
  const rotation = rotationOption("apply", values, saved && rotationOf(saved));
  if (saved?.targets !== undefined && values.target !== undefined) {
    throw new CliError(`apply: ${savedFile} was planned with its own --target; give none`);
  }
  const targets = targetOption("apply", saved?.targets ?? values.target);
  // A saved plan is checked against a fresh plan made with the limit it was made with.
  const removalLimit = raisedLimit("apply", values) ?? saved?.removal_limit;
  const replan = async (
    label: string,
    rotate: Rotation,
    deleted?: ChangesByPlace,
  ): Promise<Plan> => {
    progress.begin(label);
    try {
      const limit = removalLimit ? { removalLimit } : {};
      return partial === undefined
        ? await planPart("apply", state, session.readers, shard, {
            ...rotate,
            reads,
            ...(targets ? { targets } : {}),
            ...(deleted ? { deleted } : {}),
            ...limit,
          })
        : await planChanges("apply", partial.changed_from, base, state, session.readers, {
            ...rotate,
            reads,
            ...(deleted ? { deleted } : {}),
            ...limit,
          });
    } finally {
      progress.end();
    }
  };
  try {
    const fresh = await replan("reading live state", rotation);
    if (io.signal.aborted) {
      throw new CliError("apply: interrupted while reading live state; nothing was applied");
    }
    const plan =
      saved === undefined || savedFile === undefined
        ? fresh
        : checked({ ...io, stderr: shown.stderr }, saved, fresh, savedFile);
    const allowPlanErrors = values["allow-plan-errors"] === true;
    if (format !== "json") printPlan(io, plan, format, color, { allowPlanErrors });
    if (plan.errors > 0 && hasChanges(plan) && !allowPlanErrors) {
      // As terraform: a plan with errors applies nothing, unless told to apply the rest.
      if (format === "json") printApplyJson(io, plan, { outcomes: [], verified: false });
      shown.stderr.write(
        `forgeplan: apply: ${plural(plan.errors, "change")} could not be planned (the plan above says why), so nothing was applied; fix ${plan.errors === 1 ? "it" : "them"}, or pass --allow-plan-errors to apply the rest\n`,
      );
      return 1;
    }
    if (!hasChanges(plan)) {
      if (format === "text") io.stdout.write("Nothing to apply.\n");
      if (format === "json")
        printApplyJson(io, plan, { outcomes: [], verified: plan.errors === 0 });
      const cause =
        plan.errors > 0
          ? unplanned(plan)
          : values["fail-on-archived"] === true
            ? archivedCause(plan)
            : undefined;
      if (cause === undefined) return 0;
      shown.stderr.write(`forgeplan: apply: ${cause}\n`);
      return 1;
    }
    const missing = missingSecrets(
      applicableChanges(plan).flatMap((change) => change.requests.map((request) => request.body)),
      session.secrets,
      io.env,
    );
    if (missing.length > 0) {
      throw new CliError(
        `apply: the plan sends secrets from ${missing.join(", ")}, which ${missing.length === 1 ? "is" : "are"} not set; nothing was applied`,
      );
    }
    const allowDelete = values["allow-delete"] === true;
    const allowed = allowedGates(values);
    await confirm(
      io,
      confirmationQuestion(plan, allowDelete, allowed),
      values["auto-approve"] === true,
    );
    progress.begin("applying", applicableChanges(plan).length);
    let result: ApplyResult;
    try {
      result = await applyPlan({
        plan,
        clients: session.clients,
        allowDelete,
        allowed,
        secrets: session.secrets,
        env: io.env,
        onOutcome: () => progress.settled(),
        signal: io.signal,
      });
    } finally {
      progress.end();
    }
    const { outcomes } = result;
    // Verified without rotating: a rotated secret must now plan as no change, like everything else.
    const verifying = result.stopped
      ? undefined
      : await replan("verifying", {}, deletesApplied(plan, outcomes));
    // An interrupted re-plan read only part of live state: it verifies nothing, either way.
    const verification = io.signal.aborted ? undefined : verifying;
    const checks = verification && verificationOf(outcomes, verification);
    const report: ApplyReport = {
      outcomes,
      ...(verification ? { verification: io.redactor.plan(verification) } : {}),
      verified: checks?.verified === true,
      ...(checks && checks.unchecked.length > 0 ? { unchecked: checks.unchecked } : {}),
    };
    if (format === "json") printApplyJson(io, plan, report);
    else io.stdout.write(renderApplyReport(report, format, { color: format === "text" && color }));
    if (result.stopped) {
      shown.stderr.write(resumeHint(outcomes, result.stopped, savedFile));
      return 1;
    }
    if (verifying !== undefined && verification === undefined) {
      shown.stderr.write(
        `forgeplan: apply interrupted while verifying. ${count(outcomes, "applied")} applied, ` +
          `${count(outcomes, "failed")} failed; plan again to check that live state matches\n`,
      );
      return 1;
    }
    const cause = notApplied(outcomes, report, plan, {
      allowPlanErrors,
      failOnArchived: values["fail-on-archived"] === true,
    });
    if (cause === undefined) return 0;
    shown.stderr.write(`forgeplan: apply: ${cause}\n`);
    return 1;
  } finally {
    progress.end();
    await session.close();
  }
};
