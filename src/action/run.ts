import { rmSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { CliIO } from "../cli/io.js";
import { runCli } from "../cli/run.js";
import { hasChanges } from "../core/plan.js";
import { Redactor } from "../core/redact.js";
import { loadDesiredState } from "../engine/desired.js";
import { readPlan } from "../engine/merge.js";
import { applyStep, planStep, type StepJob } from "../report/ci/steps.js";
import { hasDrift } from "../report/drift-issue.js";
import { allowArgs, changedFrom, connectionArgs, planArgs, planPath } from "./command-lines.js";
import {
  APPLY_WORDING,
  noteTarget,
  pullRequestOf,
  reviewLookup,
  runPage,
  workflowHost,
} from "./github-job.js";
import { type ActionInputs, InputError, readInputs, tokenInputs } from "./inputs.js";
import {
  type CliRun,
  type Log,
  reportFailures,
  reportNote,
  type StepRun,
  stepSummary,
} from "./step-report.js";
import {
  type Annotation,
  annotation,
  appendTo,
  maskCommands,
  outputBlock,
  stopCommands,
  withinAnnotationLimit,
} from "./workflow-commands.js";

/**
 * The GitHub Action: runs the CI steps (report/ci/steps.ts, as `forgeplan ci` does on GitLab) over
 * the workflow's GitHub (github-job.ts), then turns what they did into what a workflow sees —
 * outputs, the job summary, annotations (step-report.ts) and the sticky pull-request comment. It
 * takes its whole environment as input (variables, the working directory, the log), so tests drive
 * it exactly as the runner does; the bundled entry passes `process.env`.
 */

export interface ActionEnvironment {
  /** What the runner sets: INPUT_*, GITHUB_* (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH, …). */
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The step's log, where the runner reads workflow commands. */
  write(text: string): void;
  signal?: AbortSignal;
}

/** The CLI sees the runner's environment with the token inputs as the default targets' variables. */
function cliEnvironment(env: ActionEnvironment["env"], inputs: ActionInputs) {
  const result: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env))
    if (!key.startsWith("INPUT_")) result[key] = value;
  if (inputs.githubToken !== undefined) result.GITHUB_TOKEN = inputs.githubToken;
  if (inputs.gitlabToken !== undefined) result.GITLAB_TOKEN = inputs.gitlabToken;
  // The default github target reads these (config/resolve.ts); a file's own targets name them.
  if (inputs.appId !== undefined) result.GITHUB_APP_ID = inputs.appId;
  if (inputs.privateKey !== undefined) result.GITHUB_APP_PRIVATE_KEY = inputs.privateKey;
  return result;
}

/** Config errors as annotations on the file, line and column, paths relative to the workspace. */
function configAnnotations(
  inputs: ActionInputs,
  env: Record<string, string | undefined>,
  cwd: string,
  workspace: string,
  redactor: Redactor,
): Annotation[] {
  const result = loadDesiredState(inputs.config, { cwd, env, redactor });
  if (result.ok) return [];
  return result.errors.map((error) => {
    const absolute = resolve(cwd, error.file);
    const shown = relative(workspace, absolute);
    return {
      level: "error",
      title: "forgeplan config",
      file: shown.startsWith("..") || isAbsolute(shown) ? error.file : shown,
      line: error.line,
      col: error.column,
      message: error.path === "" ? error.message : `${error.path}: ${error.message}`,
    };
  });
}

export async function runAction(context: ActionEnvironment): Promise<number> {
  const redactor = new Redactor();
  try {
    return await runSteps(context, redactor);
  } catch (error) {
    // One annotation, never a stack trace (which could quote a request), redacted like the rest.
    const message = error instanceof Error ? error.message : String(error);
    context.write(
      annotation({
        level: "error",
        title: "forgeplan",
        message: redactor.redact(`internal error: ${message.split("\n")[0]}`),
      }),
    );
    return 1;
  }
}

/**
 * Tells the runner to mask every value the redactor knows that it has not been told yet, as each
 * value is written and JSON-escaped (the forms a log line most often holds).
 */
function masker(
  context: ActionEnvironment,
  redactor: Redactor,
  done: Iterable<string>,
): () => void {
  const masked = new Set(done);
  return () => {
    for (const value of redactor.masks()) {
      for (const form of [value, JSON.stringify(value).slice(1, -1)]) {
        if (masked.has(form)) continue;
        masked.add(form);
        context.write(maskCommands(form));
      }
    }
  };
}

async function runSteps(context: ActionEnvironment, redactor: Redactor): Promise<number> {
  const { env } = context;
  // Before anything else, so that no later line can show a token.
  const tokens = tokenInputs(env);
  for (const token of new Set(tokens)) context.write(maskCommands(token));
  // A private key is taught line by line, as it is masked: a mask of the whole key would be one
  // command holding every line.
  for (const token of tokens) {
    for (const line of token.split("\n")) {
      if (line.trim() !== "" && !line.startsWith("-----")) redactor.add(line.trim(), "token input");
    }
  }
  const mask = masker(
    context,
    redactor,
    tokens.flatMap((token) => token.split("\n").map((line) => line.trim())),
  );
  // Everything else the log gets passes through the redactor; annotation messages before they are
  // escaped for the runner, since escaping could hide a value from it.
  const write = (text: string) => context.write(redactor.redact(text));
  const note = (annotated: Annotation) =>
    write(annotation({ ...annotated, message: redactor.redact(annotated.message) }));
  const setOutputs = (values: Record<string, string>) => {
    if (env.GITHUB_OUTPUT === undefined) return;
    for (const [name, value] of Object.entries(values))
      appendTo(env.GITHUB_OUTPUT, outputBlock(name, redactor.redact(value)));
  };
  let inputs: ActionInputs;
  try {
    inputs = readInputs(env);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    note({ level: "error", title: "forgeplan", message: error.message });
    setOutputs({ "exit-code": "1", "has-changes": "false" });
    return 1;
  }
  const cwd = context.cwd;
  const workspace = env.GITHUB_WORKSPACE ?? cwd;
  const cliEnv = cliEnvironment(env, inputs);
  const signal = context.signal ?? new AbortController().signal;

  if (inputs.merge.length === 0) {
    const problems = configAnnotations(inputs, cliEnv, cwd, workspace, redactor);
    // Loading taught the redactor the configuration's values: mask them before anything prints.
    mask();
    if (problems.length > 0) {
      const { shown, left } = withinAnnotationLimit(problems, "the log lists them");
      for (const problem of shown) note(problem);
      if (left.length > 0) {
        // Fenced, as forgeplan's own output is: a message may quote the config's text.
        const fence = stopCommands();
        const lines = left.map((problem) => {
          const at = [problem.file, problem.line, problem.col].filter((part) => part !== undefined);
          return `forgeplan: ${at.join(":")}: ${problem.message}\n`;
        });
        write(`${fence.open}${lines.join("")}${fence.close}`);
      }
      setOutputs({ "exit-code": "1", "has-changes": "false" });
      return 1;
    }
  }

  const run = inProcess(write, { env: cliEnv, cwd, signal, redactor });
  const { ran, planFile } = await runStep(context, inputs, { write, note, redactor }, run);
  const { plan } = ran;
  const changed =
    plan === undefined ? false : inputs.command === "drift" ? hasDrift(plan) : hasChanges(plan);
  setOutputs({
    "exit-code": String(ran.code),
    "has-changes": String(changed),
    ...(plan !== undefined ? { "plan-json": planFile } : {}),
  });
  if (ran.code === 1) return 1;
  // A scheduled drift check fails its run on drift: that is the notification people watch for.
  return inputs.command === "drift" && ran.code === 2 ? 1 : 0;
}

/** Runs forgeplan command lines with their output in the log, fenced so none of it reads as a command. */
function inProcess(
  write: (text: string) => void,
  surroundings: Pick<CliIO, "env" | "cwd" | "signal" | "redactor">,
): (argv: string[]) => Promise<CliRun> {
  return async (argv) => {
    const fence = stopCommands();
    let stdout = "";
    let stderr = "";
    const io: CliIO = {
      ...surroundings,
      stdout: { write: (text) => ((stdout += text), write(text)), isTTY: false },
      stderr: { write: (text) => ((stderr += text), write(text)), isTTY: false },
      stdinIsTTY: false,
    };
    write(`forgeplan ${argv.join(" ")}\n${fence.open}`);
    try {
      return { code: await runCli(argv, io), stdout, stderr };
    } finally {
      write(`${stdout.endsWith("\n") || stdout === "" ? "" : "\n"}${fence.close}`);
    }
  };
}

/**
 * The step the inputs name, over the workflow's GitHub; then its failures as annotations, the job
 * summary and what became of the comment.
 */
async function runStep(
  context: ActionEnvironment,
  inputs: ActionInputs,
  log: Log,
  run: (argv: string[]) => Promise<CliRun>,
): Promise<{ ran: StepRun; planFile: string }> {
  const { env, cwd } = context;
  const out = planPath(env, inputs);
  rmSync(out, { force: true });
  const host = workflowHost(env, inputs, context.signal);
  const pullRequest = pullRequestOf(env);
  const commit = pullRequest?.headSha ?? env.GITHUB_SHA;
  const runUrl = runPage(env);
  const job: StepJob<CliRun> = {
    run,
    readPlan,
    say: (line) => log.write(`forgeplan: ${line}\n`),
    redactor: log.redactor,
    planFile: out,
    noteKey: inputs.commentKey,
    ...(commit !== undefined ? { commit } : {}),
    ...(runUrl !== undefined ? { detailsUrl: runUrl } : {}),
  };
  const title = `forgeplan ${inputs.command}`;
  let ran: StepRun;
  if (inputs.command === "apply") {
    ran = await applyStep(job, {
      review: inputs.acceptReplan ? undefined : reviewLookup(env, inputs, host, cwd),
      planArgs: (revision) => planArgs(inputs, out, cwd, revision),
      // The job summary shows apply's report, in markdown.
      apply: {
        connection: connectionArgs(inputs),
        allow: allowArgs(inputs),
        output: ["--format", "markdown"],
      },
      allowPlanErrors: inputs.allowPlanErrors,
      wording: APPLY_WORDING,
    });
  } else {
    const target = noteTarget(env, inputs, host, pullRequest);
    const warn = (message: string) => log.note({ level: "warning", title: "forgeplan", message });
    const { run: planned, ...rest } = await planStep(job, {
      argv: planArgs(inputs, out, cwd, changedFrom(env, inputs, cwd, warn)),
      title,
      ...(target !== undefined ? { note: target } : {}),
    });
    ran = { planned, code: planned.code, ...rest };
  }
  reportFailures(log, inputs, ran);
  if (env.GITHUB_STEP_SUMMARY !== undefined) {
    const summary = stepSummary(log.redactor, ran, { title, commit, detailsUrl: runUrl });
    if (summary !== undefined) appendTo(env.GITHUB_STEP_SUMMARY, summary);
  }
  reportNote(log, ran.note);
  return { ran, planFile: out };
}
