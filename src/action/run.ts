import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { CliIO } from "../cli/io.js";
import { configDirectory, hasRevision } from "../cli/revision.js";
import { describeFailure } from "../core/failure-text.js";
import { runCli } from "../cli/run.js";
import { loadDesiredState } from "../engine/desired.js";
import { hasChanges, type Plan } from "../core/plan.js";
import { Redactor } from "../core/redact.js";
import { Secret } from "../core/secret.js";
import { readPlan } from "../engine/merge.js";
import { ForgeClient } from "../forge/client.js";
import { escapeInline } from "../render/escape.js";
import { renderPlan } from "../render/index.js";
import { summaryCounts } from "../render/wording.js";
import { hasDrift } from "../report/drift-issue.js";
import { type ActionInputs, InputError, readInputs, tokenInputs } from "./inputs.js";
import type { CiHost } from "../report/ci/host.js";
import {
  type ApplyOutcome,
  type ApplyWording,
  applyStep,
  type NoteOutcome,
  type NoteTarget,
  planStep,
  type ReviewLookup,
  type StepJob,
} from "../report/ci/steps.js";
import { githubHost } from "../report/github/host.js";
import { fitStepSummary } from "./step-summary.js";
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
 * The GitHub Action: runs forgeplan's own commands in-process, then turns their results into what a
 * workflow sees — outputs, the job summary, annotations and the sticky pull-request comment. It takes
 * its whole environment as input (variables, the working directory, the log), so tests drive it
 * exactly as the runner does; the bundled entry passes `process.env`.
 */

export interface ActionEnvironment {
  /** What the runner sets: INPUT_*, GITHUB_* (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH, …). */
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The step's log, where the runner reads workflow commands. */
  write(text: string): void;
  signal?: AbortSignal;
}

interface PullRequest {
  number: number;
  headSha?: string;
  baseSha?: string;
}

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function pullRequestOf(env: ActionEnvironment["env"]): PullRequest | undefined {
  const path = env.GITHUB_EVENT_PATH;
  if (path === undefined || !existsSync(path)) return undefined;
  const event = JSON.parse(readFileSync(path, "utf8")) as {
    pull_request?: { number?: unknown; head?: { sha?: unknown }; base?: { sha?: unknown } };
  };
  const number = event.pull_request?.number;
  if (typeof number !== "number") return undefined;
  const sha = event.pull_request?.head?.sha;
  const base = event.pull_request?.base?.sha;
  return {
    number,
    ...(typeof sha === "string" ? { headSha: sha } : {}),
    ...(typeof base === "string" ? { baseSha: base } : {}),
  };
}

function isPullRequestEvent(env: ActionEnvironment["env"]): boolean {
  return (
    env.GITHUB_EVENT_NAME === "pull_request" || env.GITHUB_EVENT_NAME === "pull_request_target"
  );
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

/** Files named in `merge`, directories expanded to the plans inside them, in name order. */
function mergeFiles(paths: readonly string[], cwd: string): string[] {
  return paths.flatMap((path) => {
    const full = resolve(cwd, path);
    if (!existsSync(full) || !statSync(full).isDirectory()) return [path];
    return readdirSync(full)
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => join(path, name));
  });
}

function planPath(env: ActionEnvironment["env"], inputs: ActionInputs): string {
  const dir = join(env.RUNNER_TEMP ?? tmpdir(), "forgeplan");
  mkdirSync(dir, { recursive: true });
  const name = inputs.shard ? `plan-shard-${inputs.shard.index}-of-${inputs.shard.count}` : "plan";
  return join(dir, `${name}.json`);
}

function connectionArgs(inputs: ActionInputs): string[] {
  return [
    ...inputs.config.flatMap((file) => ["-c", file]),
    ...(inputs.concurrency !== undefined ? ["--concurrency", inputs.concurrency] : []),
    ...(inputs.writeInterval !== undefined ? ["--write-interval", inputs.writeInterval] : []),
    ...(inputs.reads !== undefined ? ["--reads", inputs.reads] : []),
  ];
}

/**
 * The revision a plan shows the changes from: the input's, or on a pull_request event the pull
 * request's base commit, when the checkout has it (actions/checkout fetches one commit unless told
 * `fetch-depth: 0`); without it the plan is of the whole configuration, with a warning.
 */
function changedFrom(
  env: ActionEnvironment["env"],
  inputs: ActionInputs,
  cwd: string,
  warn: (message: string) => void,
): string | undefined {
  if (inputs.changedFrom !== undefined) {
    return inputs.changedFrom === "none" ? undefined : inputs.changedFrom;
  }
  const plansWhole = inputs.command === "plan" && !inputs.shard && inputs.merge.length === 0;
  const base = pullRequestOf(env)?.baseSha;
  if (!plansWhole || env.GITHUB_EVENT_NAME !== "pull_request" || base === undefined) {
    return undefined;
  }
  if (hasRevision(configDirectory(inputs.config, cwd), base)) return base;
  warn(
    `the pull request's base commit ${base} is not in the checkout (actions/checkout with fetch-depth: 0 fetches it): planning the whole configuration`,
  );
  return undefined;
}

/** The forgeplan command lines of a plan or drift run. */
function planArgs(
  inputs: ActionInputs,
  out: string,
  cwd: string,
  revision: string | undefined,
): string[] {
  // The log has the whole plan: the comment and the summary are cut to their own limits.
  const common = [
    "--format",
    inputs.format,
    ...(inputs.format === "markdown" ? ["--max-length", "0"] : []),
    "--out",
    out,
  ];
  if (inputs.merge.length > 0) {
    return ["plan", "--merge", ...mergeFiles(inputs.merge, cwd), ...common];
  }
  const shard = inputs.shard ? ["--shard", `${inputs.shard.index}/${inputs.shard.count}`] : [];
  if (inputs.command === "drift") {
    return [
      "drift",
      ...connectionArgs(inputs),
      ...shard,
      ...common,
      ...(inputs.cache !== undefined ? ["--cache", inputs.cache] : []),
      ...(inputs.reportIssue !== undefined ? ["--report-issue", inputs.reportIssue] : []),
    ];
  }
  const scope = revision === undefined ? [] : ["--changed-from", revision];
  // A saved plan records what it sends again, and apply re-plans it the same way.
  const rotation = [
    ...(inputs.rotateSecrets ? ["--rotate-secrets"] : []),
    ...inputs.rotateSecretNames.flatMap((name) => ["--rotate-secret", name]),
  ];
  return ["plan", ...connectionArgs(inputs), ...shard, ...scope, ...rotation, ...common];
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

  /** Runs a forgeplan command with its output in the log, fenced so none of it reads as a command. */
  const forgeplan = async (argv: string[]): Promise<CliRun> => {
    const fence = stopCommands();
    let stdout = "";
    let stderr = "";
    const io: CliIO = {
      stdout: { write: (text) => ((stdout += text), write(text)), isTTY: false },
      stderr: { write: (text) => ((stderr += text), write(text)), isTTY: false },
      stdinIsTTY: false,
      env: cliEnv,
      cwd,
      signal,
      redactor,
    };
    write(`forgeplan ${argv.join(" ")}\n${fence.open}`);
    try {
      return { code: await runCli(argv, io), stdout, stderr };
    } finally {
      write(`${stdout.endsWith("\n") || stdout === "" ? "" : "\n"}${fence.close}`);
    }
  };

  const out = planPath(env, inputs);
  rmSync(out, { force: true });
  const log: Log = { write, note, redactor };
  const host = workflowHost(context, inputs);
  const pullRequest = pullRequestOf(env);
  const commit = pullRequest?.headSha ?? env.GITHUB_SHA;
  const runUrl = runPage(env);
  const job: StepJob<CliRun> = {
    run: forgeplan,
    readPlan,
    say: (line) => write(`forgeplan: ${line}\n`),
    redactor,
    planFile: out,
    noteKey: inputs.commentKey,
    ...(commit !== undefined ? { commit } : {}),
    ...(runUrl !== undefined ? { detailsUrl: runUrl } : {}),
  };
  const title = `forgeplan ${inputs.command}`;
  const target = noteTarget(env, inputs, host, pullRequest);
  const ran: StepRun =
    inputs.command === "apply"
      ? await applyStep(job, {
          review: inputs.acceptReplan ? undefined : reviewLookup(env, inputs, host, cwd),
          planArgs: (revision) => planArgs(inputs, out, cwd, revision),
          apply: {
            connection: connectionArgs(inputs),
            allow: allowArgs(inputs),
            // The job summary shows the report.
            output: ["--format", "markdown"],
          },
          allowPlanErrors: inputs.allowPlanErrors,
          wording: APPLY_WORDING,
        })
      : await planStep(job, {
          argv: planArgs(
            inputs,
            out,
            cwd,
            changedFrom(env, inputs, cwd, (message) =>
              note({ level: "warning", title: "forgeplan", message }),
            ),
          ),
          title,
          ...(target !== undefined ? { note: target } : {}),
        }).then(({ run, ...rest }) => ({ planned: run, code: run.code, ...rest }));
  const { plan } = ran;
  const exitCode = ran.code;
  reportFailures(log, inputs, ran);
  if (env.GITHUB_STEP_SUMMARY !== undefined) {
    const summary = stepSummary(redactor, ran, { title, commit, detailsUrl: runUrl });
    if (summary !== undefined) appendTo(env.GITHUB_STEP_SUMMARY, summary);
  }
  reportNote(log, ran.note);

  const changed =
    plan === undefined ? false : inputs.command === "drift" ? hasDrift(plan) : hasChanges(plan);
  setOutputs({
    "exit-code": String(exitCode),
    "has-changes": String(changed),
    ...(plan !== undefined ? { "plan-json": out } : {}),
  });
  if (exitCode === 1) return 1;
  // A scheduled drift check fails its run on drift: that is the notification people watch for.
  return inputs.command === "drift" && exitCode === 2 ? 1 : 0;
}

/** What a step of the Action ran: the plan, and the apply or the note that followed it. */
type StepRun = Partial<Omit<ApplyOutcome<CliRun>, "planned" | "code">> & {
  planned: CliRun;
  code: number;
  note?: NoteOutcome;
};

/**
 * Why the step failed, as error annotations: a plan that was not the one reviewed, the changes that
 * could not be planned or applied, or the command's one-line reason; and drift, which fails a
 * scheduled check.
 */
function reportFailures({ note }: Log, inputs: ActionInputs, ran: StepRun): void {
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
function stepSummary(
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

function runPage(env: ActionEnvironment["env"]): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = env;
  if (server === undefined || repo === undefined || run === undefined) return undefined;
  const attempt = env.GITHUB_RUN_ATTEMPT;
  return `${server}/${repo}/actions/runs/${run}${attempt !== undefined ? `/attempts/${attempt}` : ""}`;
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

/** The step's log as the steps write to it: lines and annotations, both redacted. */
interface Log {
  write(text: string): void;
  note(annotated: Annotation): void;
  redactor: Redactor;
}

/** What became of the sticky comment, in the log; a comment that could not be written only warns. */
function reportNote({ write, note }: Log, outcome: NoteOutcome | undefined): void {
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

/** The client of the repository the workflow runs in: its comments and pull requests. */
function workflowClient(context: ActionEnvironment, token: string): ForgeClient {
  return new ForgeClient({
    baseUrl: context.env.GITHUB_API_URL ?? "https://api.github.com",
    kind: "repository",
    token: new Secret(token, "input github-token"),
    writeIntervalMs: 0,
    ...(context.signal !== undefined ? { signal: context.signal } : {}),
  });
}

/** The repository the workflow runs in as the steps' host, when github-token can reach it. */
function workflowHost(context: ActionEnvironment, inputs: ActionInputs): CiHost | undefined {
  const [owner, repo] = (context.env.GITHUB_REPOSITORY ?? "").split("/");
  if (inputs.githubToken === undefined || !owner || !repo) return undefined;
  return githubHost(workflowClient(context, inputs.githubToken), {
    owner,
    repo,
    ...(inputs.commentAuthor !== undefined ? { commentAuthor: inputs.commentAuthor } : {}),
  });
}

/**
 * Where the plan comment goes: the pull request of a pull_request event, when the step comments
 * (on those events unless sharded, or as the comment input says) and plans; none on apply.
 */
function noteTarget(
  env: ActionEnvironment["env"],
  inputs: ActionInputs,
  host: CiHost | undefined,
  pullRequest: PullRequest | undefined,
): NoteTarget | undefined {
  const wanted = inputs.comment ?? (isPullRequestEvent(env) && inputs.shard === undefined);
  if (!wanted || inputs.command === "apply") return undefined;
  if (pullRequest === undefined || !(env.GITHUB_REPOSITORY ?? "").includes("/")) {
    return { skipped: "no pull request in this event: the plan is in the job summary only" };
  }
  if (host === undefined)
    return { skipped: "no github-token: the plan is in the job summary only" };
  return { host, number: pullRequest.number };
}

/** On merge, the pull request whose merge made GITHUB_SHA has the reviewed plan. */
function reviewLookup(
  env: ActionEnvironment["env"],
  inputs: ActionInputs,
  host: CiHost | undefined,
  cwd: string,
): ReviewLookup {
  const sha = env.GITHUB_SHA;
  if (sha === undefined || !(env.GITHUB_REPOSITORY ?? "").includes("/")) {
    return {
      cannot:
        "GITHUB_SHA and GITHUB_REPOSITORY are needed to find the pull request this merge belongs to",
    };
  }
  if (host === undefined) {
    return { cannot: "no github-token to find the pull request this merge belongs to" };
  }
  return {
    host,
    sha,
    before: pushedFrom(env),
    hasRevision: (revision) => hasRevision(configDirectory(inputs.config, cwd), revision),
  };
}

/** How the Action's annotations word the apply's refusals: by its inputs and the job summary. */
const APPLY_WORDING: ApplyWording = {
  override: "set accept-replan: true",
  accepted: "accept-replan: true",
  planShownIn: "the job summary",
  changeKind: "pull request",
  notAPush: "this run is not a push that says which commit it came after",
  fullHistory: "in the checkout (actions/checkout with fetch-depth: 0)",
};

function allowArgs(inputs: ActionInputs): string[] {
  return [
    ...(inputs.allowDelete ? ["--allow-delete"] : []),
    ...(inputs.allowVisibility ? ["--allow-visibility"] : []),
    ...(inputs.allowCreate ? ["--allow-create"] : []),
    ...(inputs.allowProtectionGap ? ["--allow-protection-gap"] : []),
    ...(inputs.allowPlanErrors ? ["--allow-plan-errors"] : []),
  ];
}

/** A push event's `before`: the commit the branch was at; none for a new branch or other events. */
function pushedFrom(env: ActionEnvironment["env"]): string | undefined {
  const path = env.GITHUB_EVENT_PATH;
  if (env.GITHUB_EVENT_NAME !== "push" || path === undefined || !existsSync(path)) return undefined;
  const before = (JSON.parse(readFileSync(path, "utf8")) as { before?: unknown }).before;
  return typeof before === "string" && /^[0-9a-f]{40}$/.test(before) && !/^0+$/.test(before)
    ? before
    : undefined;
}
