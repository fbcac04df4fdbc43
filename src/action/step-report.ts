import { describeFailure } from "../core/failure-text.js";
import type { Plan } from "../core/plan.js";
import type { Redactor } from "../core/redact.js";
import { escapeInline } from "../render/escape.js";
import { renderPlan } from "../render/index.js";
import { summaryCounts } from "../render/wording.js";
import type { ApplyOutcome, NoteOutcome } from "../report/ci/steps.js";
import type { ActionInputs } from "./inputs.js";
import { fitStepSummary } from "./step-summary.js";
import { type Annotation, withinAnnotationLimit } from "./workflow-commands.js";

/**
 * What a CI step did, as a workflow shows it: error annotations for why it failed, the job summary,
 * and the lines and warnings about the pull-request comment.
 */

/** A forgeplan command run in-process and what it wrote: apply's report, a failure's last line. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** What a step of the Action ran: the plan, and the apply or the note that followed it. */
export type StepRun = Partial<Omit<ApplyOutcome<CliRun>, "planned" | "code">> & {
  planned: CliRun;
  code: number;
  note?: NoteOutcome;
};

/** The step's log as the steps write to it: lines and annotations, both redacted. */
export interface Log {
  write(text: string): void;
  note(annotated: Annotation): void;
  redactor: Redactor;
}

/**
 * Why the step failed, as error annotations: a plan that was not the one reviewed, the changes that
 * could not be planned or applied, or the command's one-line reason; and drift, which fails a
 * scheduled check.
 */
export function reportFailures({ note }: Log, inputs: ActionInputs, ran: StepRun): void {
  const { plan, applied, refused } = ran;
  const failures =
    refused !== undefined
      ? [{ level: "error" as const, title: "forgeplan apply", message: refused.message }]
      : applied === undefined
        ? failureAnnotations(plan, ran.planned)
        : failureAnnotations(undefined, applied);
  const failed = withinAnnotationLimit(failures, "the job summary and the log say which and why");
  for (const failure of failed.shown) note(failure);
  if (inputs.command === "drift" && ran.code === 2 && plan !== undefined) {
    // The step fails on drift; the annotation says why, where a failed run is looked at first.
    note({
      level: "error",
      title: "forgeplan drift",
      message: `live state drifted from the desired state: ${summaryCounts(plan.summary)}; the job summary has the plan`,
    });
  }
}

/**
 * The job summary: the apply's report, or the plan as markdown — after a refused apply, the plan
 * that was not applied, under why — within the summary's limit; nothing when nothing ran that far.
 */
export function stepSummary(
  redactor: Redactor,
  { plan, applied, refused }: StepRun,
  options: { title: string; commit: string | undefined; detailsUrl: string | undefined },
): string | undefined {
  if (applied === undefined && plan === undefined) return undefined;
  const stopped =
    refused === undefined
      ? ""
      : `### forgeplan apply: stopped\n\n${escapeInline(refused.message)}\n\n`;
  return fitStepSummary((maxLength) => {
    const planned = plan
      ? renderPlan(redactor.plan(plan), "markdown", {
          title:
            refused !== undefined
              ? "forgeplan apply: the plan that was not applied"
              : options.title,
          ...(options.commit !== undefined ? { commit: options.commit } : {}),
          ...(options.detailsUrl !== undefined ? { detailsUrl: options.detailsUrl } : {}),
          maxLength: Math.max(maxLength - stopped.length, 0),
        })
      : "";
    return redactor.redact(applied?.stdout ?? `${stopped}${planned}`);
  });
}

/** Errors of single changes, or the one-line reason the command stopped. */
function failureAnnotations(plan: Plan | undefined, run: CliRun): Annotation[] {
  if (run.code !== 1) return [];
  const failed = plan?.changes.filter((change) => change.error !== undefined) ?? [];
  if (failed.length > 0) {
    return failed.map((change) => ({
      level: "error",
      title: "forgeplan",
      message: `${change.address}: ${describeFailure(change.error!)}`,
    }));
  }
  const reason = run.stderr
    .split("\n")
    .filter((line) => line.startsWith("forgeplan: "))
    .pop();
  const message =
    reason === undefined
      ? "forgeplan exited 1; the log and the job summary say what failed"
      : reason.slice("forgeplan: ".length);
  return [{ level: "error", title: "forgeplan", message }];
}

/** What became of the sticky comment, in the log; a comment that could not be written only warns. */
export function reportNote({ write, note }: Log, outcome: NoteOutcome | undefined): void {
  const warn = (message: string) => note({ level: "warning", title: "forgeplan", message });
  switch (outcome?.status) {
    case undefined:
      return;
    case "skipped":
      warn(outcome.reason);
      return;
    case "failed":
      // A pull request from a fork gets a read-only token: the plan stays in the job summary.
      warn(`could not comment on ${outcome.where}: ${outcome.error.message}`);
      return;
    case "written":
      write(`forgeplan: pull-request comment ${outcome.result.action}: ${outcome.result.url}\n`);
      if (outcome.result.warning !== undefined) warn(outcome.result.warning);
  }
}
