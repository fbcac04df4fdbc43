import { existsSync, mkdirSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Secret } from "../core/secret.js";
import { ForgeClient, ForgeError } from "../forge/client.js";
import { currentUser, type GitlabUser } from "../report/gitlab/api.js";
import { gitlabHost } from "../report/gitlab/host.js";
import { parseFlags } from "./args.js";
import { applyStep, driftStep, planStep, type StepContext } from "./ci-steps.js";
import { type CiStep, readGitlabCiJob, stepOf } from "./gitlab-ci-env.js";
import { type Command, CliError } from "./io.js";
import { hasRevision } from "./revision.js";
import { runCli } from "./run.js";

/**
 * `forgeplan ci`: the CI steps in a GitLab CI job, from GitLab's predefined variables. A
 * merge-request pipeline plans and keeps one sticky note on the merge request; a pipeline of the
 * default branch applies what the merged request's note showed; a scheduled pipeline checks drift
 * and keeps one issue. The steps are ci-steps.ts's, over GitLab (report/gitlab/host.ts).
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

/** The directory of the first configuration: where git is asked about revisions. */
function configDirectory(config: readonly string[], cwd: string): string {
  const first = resolve(cwd, config[0] ?? ".");
  return existsSync(first) && statSync(first).isDirectory() ? first : dirname(first);
}

export const ci: Command = async (argv, io) => {
  const { values } = parseFlags("ci", argv, flags);
  if (values.help) {
    io.stdout.write(help);
    return 0;
  }
  const chosen = values.step ?? "auto";
  if (!(STEPS as readonly string[]).includes(chosen)) {
    throw new CliError(`ci: --step must be one of ${STEPS.join(", ")}, got '${chosen}'`);
  }
  const job = readGitlabCiJob(io.env);
  const step: CiStep = chosen === "auto" ? stepOf(job) : (chosen as CiStep);
  const variable = values["token-variable"] ?? TOKEN_VARIABLE;
  const token = io.env[variable]?.trim();
  if (token === undefined || token === "") {
    throw new CliError(
      `ci: no token: set the CI/CD variable ${variable} (masked) to a project or group access token with the api scope`,
    );
  }
  // Before anything is written: no line of the job's log may show it.
  io.redactor.add(token, variable);
  const config = values.config ?? ["forgeplan.yaml"];
  const configArgs = [
    ...config.flatMap((file) => ["-c", file]),
    ...(values.concurrency !== undefined ? ["--concurrency", values.concurrency] : []),
    ...(values["write-interval"] !== undefined
      ? ["--write-interval", values["write-interval"]]
      : []),
  ];
  const client = new ForgeClient({
    baseUrl: job.serverUrl,
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
    project: job.project,
    author,
    issueLabels: labelsOf(values["issue-labels"]),
  });
  const cliEnv = { ...io.env, GITLAB_TOKEN: io.env.GITLAB_TOKEN ?? token };
  const dir = join(tmpdir(), "forgeplan-ci");
  mkdirSync(dir, { recursive: true });
  const ctx: StepContext = {
    io,
    host,
    run: (args) => {
      io.stderr.write(`forgeplan: running forgeplan ${args.join(" ")}\n`);
      return runCli(args, { ...io, env: cliEnv, stdinIsTTY: false });
    },
    configArgs,
    targetArgs: (values.target ?? []).flatMap((address) => ["--target", address]),
    planFile: join(mkdtempSync(join(dir, "run-")), "plan.json"),
    noteKey: values["note-key"] ?? config.join(" "),
    ...(job.sha !== undefined ? { commit: job.sha } : {}),
    ...(job.logUrl !== undefined ? { logUrl: job.logUrl } : {}),
    ...(values["terraform-report"] !== undefined
      ? { terraformReport: resolve(io.cwd, values["terraform-report"]) }
      : {}),
  };
  io.stderr.write(`forgeplan: ci: ${step} (pipeline source ${job.source}) as ${author.username}\n`);
  const gitDir = configDirectory(config, io.cwd);
  switch (step) {
    case "plan": {
      let revision: string | undefined;
      if (job.mergeRequest !== undefined && job.diffBase !== undefined) {
        if (hasRevision(gitDir, job.diffBase)) revision = job.diffBase;
        else {
          io.stderr.write(
            `forgeplan: the merge request's base commit ${job.diffBase.slice(0, 12)} is not in the clone (GIT_DEPTH: 0 fetches it): planning the whole configuration\n`,
          );
        }
      }
      return await planStep(ctx, { number: job.mergeRequest, revision });
    }
    case "apply":
      return await applyStep(ctx, {
        sha: job.sha,
        before: job.before,
        hasRevision: (revision) => hasRevision(gitDir, revision),
        acceptReplan: values["accept-replan"] === true,
        override: "pass --accept-replan",
        allow: (
          [
            "allow-delete",
            "allow-visibility",
            "allow-create",
            "allow-protection-gap",
            "allow-plan-errors",
          ] as const
        ).flatMap((name) => (values[name] === true ? [`--${name}`] : [])),
      });
    case "drift":
      return await driftStep(ctx);
  }
};
