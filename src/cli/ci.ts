import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Secret } from "../core/secret.js";
import { readPlan } from "../engine/merge.js";
import { ForgeClient, ForgeError } from "../forge/client.js";
import type { CiHost } from "../report/ci/host.js";
import {
  type ApplyWording,
  applyStep,
  type CommandRun,
  type IssueOutcome,
  type NoteOutcome,
  planStep,
  type StepJob,
} from "../report/ci/steps.js";
import { currentUser, type GitlabUser } from "../report/gitlab/api.js";
import { gitlabHost } from "../report/gitlab/host.js";
import { parseFlags } from "./args.js";
import { type CiStep, type GitlabCiJob, readGitlabCiJob, stepOf } from "./gitlab-ci-env.js";
import { type Command, CliError, type CommandIO, type RunCli } from "./io.js";
import { configDirectory, hasRevision } from "./revision.js";

/**
 * `forgeplan ci`: the CI steps in a GitLab CI job, from GitLab's predefined variables. A
 * merge-request pipeline plans and keeps one sticky note on the merge request; a pipeline of the
 * default branch applies what the merged request's note showed; a scheduled pipeline checks drift
 * and keeps one issue. The steps are the GitHub Action's (report/ci/steps.ts), over GitLab
 * (report/gitlab/host.ts), said in the job's log.
 */

/** The CI/CD variable the token is read from unless --token-variable names another. */
export const TOKEN_VARIABLE = "FORGEPLAN_GITLAB_TOKEN";
const DRIFT_LABEL = "forgeplan-drift";

export const flags = {
  config: { type: "string", short: "c", multiple: true },
  target: { type: "string", multiple: true },
  step: { type: "string" },
  "note-key": { type: "string" },
  "terraform-report": { type: "string" },
  "token-variable": { type: "string" },
  "issue-labels": { type: "string" },
  "accept-replan": { type: "boolean" },
  "allow-delete": { type: "boolean" },
  "allow-visibility": { type: "boolean" },
  "allow-create": { type: "boolean" },
  "allow-protection-gap": { type: "boolean" },
  "allow-plan-errors": { type: "boolean" },
  concurrency: { type: "string" },
  "write-interval": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export const help = `usage: forgeplan ci [-c FILE|DIR]... [--step auto|plan|apply|drift] [--terraform-report FILE]
                    [--note-key KEY] [--allow-delete] [--accept-replan] …

The CI steps in a GitLab CI job, chosen by GitLab's predefined variables (CI_PIPELINE_SOURCE,
CI_COMMIT_BRANCH, CI_DEFAULT_BRANCH):
  merge-request pipeline   plan, and keep one note with the plan on the merge request
                           (CI_MERGE_REQUEST_IID), edited in place on every push
  default branch           apply exactly the plan the merged request's note showed; a plan that
                           changed since is refused and nothing is applied
  scheduled pipeline       drift check: open one issue on drift, update it while drift stays,
                           close it once drift is gone
  -c FILE|DIR              the configuration (repeatable; default forgeplan.yaml)
  --target ADDRESS         plan, apply and check only what this address matches (repeatable;
                           globs allowed), as 'forgeplan plan --target' does
  --step STEP              run this step whatever the pipeline (default auto)
  --terraform-report FILE  write the plan's counts in GitLab's Terraform report format
                           ({"create": n, "update": n, "delete": n}) for artifacts:reports:terraform
  --note-key KEY           which note is this configuration's (default: the -c paths)
  --token-variable NAME    the CI/CD variable holding the token (default ${TOKEN_VARIABLE}); it
                           writes the notes and issues, and is the gitlab targets' GITLAB_TOKEN
                           unless the job sets GITLAB_TOKEN itself
  --issue-labels L1,L2     labels of the drift issue; the first finds it again (default ${DRIFT_LABEL})
  --accept-replan          apply: apply the plan made now even when no reviewed plan matches it
  --allow-delete, --allow-visibility, --allow-create, --allow-protection-gap, --allow-plan-errors
                           apply: as 'forgeplan apply' takes them
  --concurrency N, --write-interval MS   as 'forgeplan plan' takes them
  -h, --help               this text
Exit codes are the step's command's: plan 0 no changes, 2 changes; apply 0 applied; drift 0 none,
2 drift; 1 errors (a refused apply, a note or issue that could not be written).
`;

const STEPS = ["auto", "plan", "apply", "drift"] as const;

function labelsOf(text: string | undefined): string[] {
  if (text === undefined) return [DRIFT_LABEL];
  const labels = text
    .split(",")
    .map((label) => label.trim())
    .filter((label) => label !== "");
  if (labels.length === 0) throw new CliError("ci: --issue-labels names no label");
  return labels;
}

/**
 * `forgeplan ci`, running its steps' plan and apply through `runCli` (handed in by ./run.ts, which
 * loads this command: so the two modules do not import each other).
 */
export const ciCommand =
  (runCli: RunCli): Command =>
  async (argv, io) => {
    const { values } = parseFlags("ci", argv, flags);
    if (values.help) {
      io.stdout.write(help);
      return 0;
    }
    const chosen = values.step ?? "auto";
    if (!(STEPS as readonly string[]).includes(chosen)) {
      throw new CliError(`ci: --step must be one of ${STEPS.join(", ")}, got '${chosen}'`);
    }
    const pipeline = readGitlabCiJob(io.env);
    const step: CiStep = chosen === "auto" ? stepOf(pipeline) : (chosen as CiStep);
    const variable = values["token-variable"] ?? TOKEN_VARIABLE;
    const token = io.env[variable]?.trim();
    if (token === undefined || token === "") {
      throw new CliError(
        `ci: no token: set the CI/CD variable ${variable} (masked) to a project or group access token with the api scope`,
      );
    }
    // Before anything is written: no line of the job's log may show it.
    io.redactor.add(token, variable);
    const client = new ForgeClient({
      baseUrl: pipeline.serverUrl,
      kind: "planning",
      token: new Secret(token, variable),
      // A note or an issue a run, as the Action's own client writes its comments.
      writeIntervalMs: 0,
      signal: io.signal,
    });
    let author: GitlabUser;
    try {
      author = await currentUser(client);
    } catch (error) {
      if (error instanceof ForgeError) {
        throw new CliError(`ci: the token in ${variable} cannot be used: ${error.message}`);
      }
      throw error;
    }
    const host = gitlabHost(client, {
      project: pipeline.project,
      author,
      issueLabels: labelsOf(values["issue-labels"]),
    });
    const cliEnv = { ...io.env, GITLAB_TOKEN: io.env.GITLAB_TOKEN ?? token };
    const job = gitlabJob(io, pipeline, values, (args) =>
      runCli(args, { ...io, env: cliEnv, stdinIsTTY: false }),
    );
    job.say(`ci: ${step} (pipeline source ${pipeline.source}) as ${author.username}`);
    return await runStep(step, { io, job, host, pipeline, values });
  };

type Values = ReturnType<typeof parseFlags<typeof flags>>["values"];

/** The step's job: forgeplan's commands in-process, the log on stderr, the plan in a fresh file. */
function gitlabJob(
  io: CommandIO,
  pipeline: GitlabCiJob,
  values: Values,
  runCommand: (argv: string[]) => Promise<number>,
): StepJob<CommandRun> {
  const dir = join(tmpdir(), "forgeplan-ci");
  mkdirSync(dir, { recursive: true });
  const say = (line: string) => io.stderr.write(`forgeplan: ${line}\n`);
  const config = values.config ?? ["forgeplan.yaml"];
  return {
    run: async (args) => {
      say(`running forgeplan ${args.join(" ")}`);
      return { code: await runCommand(args) };
    },
    readPlan,
    say,
    redactor: io.redactor,
    planFile: join(mkdtempSync(join(dir, "run-")), "plan.json"),
    noteKey: values["note-key"] ?? config.join(" "),
    ...(pipeline.sha !== undefined ? { commit: pipeline.sha } : {}),
    ...(pipeline.logUrl !== undefined ? { detailsUrl: pipeline.logUrl } : {}),
    ...(values["terraform-report"] !== undefined
      ? { terraformReport: resolve(io.cwd, values["terraform-report"]) }
      : {}),
  };
}

async function runStep(
  step: CiStep,
  {
    io,
    job,
    host,
    pipeline,
    values,
  }: {
    io: CommandIO;
    job: StepJob<CommandRun>;
    host: CiHost;
    pipeline: GitlabCiJob;
    values: Values;
  },
): Promise<number> {
  const config = values.config ?? ["forgeplan.yaml"];
  const configArgs = [
    ...config.flatMap((file) => ["-c", file]),
    ...(values.concurrency !== undefined ? ["--concurrency", values.concurrency] : []),
    ...(values["write-interval"] !== undefined
      ? ["--write-interval", values["write-interval"]]
      : []),
  ];
  const targetArgs = (values.target ?? []).flatMap((address) => ["--target", address]);
  const planArgs = (revision: string | undefined) => [
    "plan",
    ...configArgs,
    ...targetArgs,
    ...(revision === undefined ? [] : ["--changed-from", revision]),
    "--out",
    job.planFile,
  ];
  const gitDir = configDirectory(config, io.cwd);
  switch (step) {
    case "plan": {
      let revision: string | undefined;
      if (pipeline.mergeRequest !== undefined && pipeline.diffBase !== undefined) {
        if (hasRevision(gitDir, pipeline.diffBase)) revision = pipeline.diffBase;
        else {
          job.say(
            `the merge request's base commit ${pipeline.diffBase.slice(0, 12)} is not in the clone (GIT_DEPTH: 0 fetches it): planning the whole configuration`,
          );
        }
      }
      const planned = await planStep(job, {
        argv: planArgs(revision),
        title: "forgeplan plan",
        note:
          pipeline.mergeRequest === undefined
            ? { skipped: "not a merge-request pipeline: the plan is in the job log only" }
            : { host, number: pipeline.mergeRequest },
      });
      return sayNote(job.say, planned.note) ? planned.run.code : 1;
    }
    case "apply": {
      const applied = await applyStep(job, {
        review: values["accept-replan"]
          ? undefined
          : pipeline.sha === undefined
            ? { cannot: "CI_COMMIT_SHA is needed to find the merge request this commit belongs to" }
            : {
                host,
                sha: pipeline.sha,
                before: pipeline.before,
                hasRevision: (revision) => hasRevision(gitDir, revision),
              },
        planArgs,
        apply: { connection: configArgs, allow: allowArgs(values), output: [] },
        allowPlanErrors: values["allow-plan-errors"] === true,
        wording: APPLY_WORDING,
      });
      if (applied.refused !== undefined) job.say(`apply: ${applied.refused.message}`);
      return applied.code;
    }
    case "drift": {
      const checked = await planStep(job, {
        argv: ["drift", ...configArgs, ...targetArgs, "--out", job.planFile],
        title: "forgeplan drift",
        driftIssue: host,
      });
      return sayIssue(job.say, checked.issue) ? checked.run.code : 1;
    }
  }
}

/** How the log of a GitLab job words the apply's refusals. */
const APPLY_WORDING: ApplyWording = {
  override: "pass --accept-replan",
  accepted: "--accept-replan",
  planShownIn: "the job log",
  changeKind: "merge request",
  notAPush:
    "this pipeline is not a push that says which commit it came after (CI_COMMIT_BEFORE_SHA)",
  fullHistory: "in the clone (GIT_DEPTH: 0)",
};

const ALLOW_FLAGS = [
  "allow-delete",
  "allow-visibility",
  "allow-create",
  "allow-protection-gap",
  "allow-plan-errors",
] as const;

function allowArgs(values: Partial<Record<(typeof ALLOW_FLAGS)[number], boolean>>): string[] {
  return ALLOW_FLAGS.flatMap((name) => (values[name] === true ? [`--${name}`] : []));
}

/** Says what became of the plan note; false when the host refused it, which fails the step. */
function sayNote(say: (line: string) => void, note: NoteOutcome | undefined): boolean {
  switch (note?.status) {
    case undefined:
      return true;
    case "skipped":
      say(note.reason);
      return true;
    case "failed":
      say(`could not write the plan note on ${note.where}: ${note.error.message}`);
      return false;
    case "written":
      say(`plan note ${note.result.action} on ${note.where}: ${note.result.url}`);
      if (note.result.warning !== undefined) say(`warning: ${note.result.warning}`);
      return true;
  }
}

/** Says what became of the drift issue; false when it could not be kept, which fails the step. */
function sayIssue(say: (line: string) => void, issue: IssueOutcome | undefined): boolean {
  switch (issue?.status) {
    case undefined:
      return true;
    case "left":
      say(issue.reason);
      return true;
    case "failed":
      say(`could not keep the drift issue: ${issue.error.message}`);
      return false;
    case "kept":
      if (issue.result.action !== "none") {
        say(`drift issue #${issue.result.number} ${issue.result.action}: ${issue.result.url}`);
      }
      if (issue.result.warning !== undefined) say(`warning: ${issue.result.warning}`);
      return true;
  }
}
