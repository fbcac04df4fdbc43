import { existsSync, readFileSync } from "node:fs";
import { configDirectory, hasRevision } from "../cli/revision.js";
import { Secret } from "../core/secret.js";
import { ForgeClient } from "../forge/client.js";
import type { CiHost } from "../report/ci/host.js";
import type { ApplyWording, NoteTarget, ReviewLookup } from "../report/ci/steps.js";
import { githubHost } from "../report/github/host.js";
import type { ActionInputs } from "./inputs.js";

/**
 * The workflow's GitHub as the CI steps see it (report/ci/steps.ts): the event's pull request or
 * push, the repository the workflow runs in as the steps' host through github-token, where the
 * plan comment goes and where the apply on merge finds the reviewed plan, in the Action's words.
 */

type Env = Readonly<Record<string, string | undefined>>;

export interface PullRequest {
  number: number;
  headSha?: string;
  baseSha?: string;
}

export function pullRequestOf(env: Env): PullRequest | undefined {
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

function isPullRequestEvent(env: Env): boolean {
  return (
    env.GITHUB_EVENT_NAME === "pull_request" || env.GITHUB_EVENT_NAME === "pull_request_target"
  );
}

export function runPage(env: Env): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = env;
  if (server === undefined || repo === undefined || run === undefined) return undefined;
  const attempt = env.GITHUB_RUN_ATTEMPT;
  return `${server}/${repo}/actions/runs/${run}${attempt !== undefined ? `/attempts/${attempt}` : ""}`;
}

/** The client of the repository the workflow runs in: its comments and pull requests. */
function workflowClient(env: Env, token: string, signal: AbortSignal | undefined): ForgeClient {
  return new ForgeClient({
    baseUrl: env.GITHUB_API_URL ?? "https://api.github.com",
    kind: "repository",
    token: new Secret(token, "input github-token"),
    writeIntervalMs: 0,
    ...(signal !== undefined ? { signal } : {}),
  });
}

/** The repository the workflow runs in (`GITHUB_REPOSITORY`, OWNER/REPO). */
function repositoryOf(env: Env): { owner: string; repo: string } | undefined {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? "").split("/");
  return owner && repo ? { owner, repo } : undefined;
}

/** The repository the workflow runs in as the steps' host, when github-token can reach it. */
export function workflowHost(
  env: Env,
  inputs: ActionInputs,
  signal: AbortSignal | undefined,
): CiHost | undefined {
  const repository = repositoryOf(env);
  if (inputs.githubToken === undefined || repository === undefined) return undefined;
  return githubHost(workflowClient(env, inputs.githubToken, signal), {
    ...repository,
    ...(inputs.commentAuthor !== undefined ? { commentAuthor: inputs.commentAuthor } : {}),
  });
}

/**
 * Where the plan comment goes: the pull request of a pull_request event, when the step comments
 * (on those events unless sharded, or as the comment input says) and plans; none on apply.
 */
export function noteTarget(
  env: Env,
  inputs: ActionInputs,
  host: CiHost | undefined,
  pullRequest: PullRequest | undefined,
): NoteTarget | undefined {
  const wanted = inputs.comment ?? (isPullRequestEvent(env) && inputs.shard === undefined);
  if (!wanted || inputs.command === "apply") return undefined;
  if (pullRequest === undefined || repositoryOf(env) === undefined) {
    return { skipped: "no pull request in this event: the plan is in the job summary only" };
  }
  if (host === undefined)
    return { skipped: "no github-token: the plan is in the job summary only" };
  return { host, number: pullRequest.number };
}

/** On merge, the pull request whose merge made GITHUB_SHA has the reviewed plan. */
export function reviewLookup(
  env: Env,
  inputs: ActionInputs,
  host: CiHost | undefined,
  cwd: string,
): ReviewLookup {
  const sha = env.GITHUB_SHA;
  if (sha === undefined || repositoryOf(env) === undefined) {
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
export const APPLY_WORDING: ApplyWording = {
  override: "set accept-replan: true",
  accepted: "accept-replan: true",
  planShownIn: "the job summary",
  changeKind: "pull request",
  notAPush: "this run is not a push that says which commit it came after",
  fullHistory: "in the checkout (actions/checkout with fetch-depth: 0)",
};

/** A push event's `before`: the commit the branch was at; none for a new branch or other events. */
function pushedFrom(env: Env): string | undefined {
  const path = env.GITHUB_EVENT_PATH;
  if (env.GITHUB_EVENT_NAME !== "push" || path === undefined || !existsSync(path)) return undefined;
  const before = (JSON.parse(readFileSync(path, "utf8")) as { before?: unknown }).before;
  return typeof before === "string" && /^[0-9a-f]{40}$/.test(before) && !/^0+$/.test(before)
    ? before
    : undefined;
}
