import { CliError } from "./io.js";

/**
 * The GitLab CI job `forgeplan ci` runs in, from GitLab's predefined CI/CD variables
 * (doc/ci/variables/predefined_variables.md): the API, the project, the pipeline's source, the
 * commit, and in a merge-request pipeline the merge request and its base.
 */
export interface GitlabCiJob {
  /** The instance's root (`CI_SERVER_URL`), where the API lives under /api/v4. */
  serverUrl: string;
  /** `CI_PROJECT_ID`: the project whose merge requests and issues the steps write to. */
  project: string;
  /** `CI_PIPELINE_SOURCE`: `merge_request_event`, `schedule`, `push`, `web`, … */
  source: string;
  sha: string | undefined;
  /** `CI_COMMIT_BRANCH`: set in branch pipelines, not in merge-request pipelines. */
  branch: string | undefined;
  defaultBranch: string | undefined;
  /** `CI_MERGE_REQUEST_IID`, in merge-request pipelines. */
  mergeRequest: number | undefined;
  /** `CI_MERGE_REQUEST_DIFF_BASE_SHA`: the base the merge request's diff is made from. */
  diffBase: string | undefined;
  /**
   * `CI_COMMIT_BEFORE_SHA`: the branch's previous commit in a push pipeline; GitLab sets it to 40
   * zeros for merge-request and scheduled pipelines and a branch's first push, read here as none.
   */
  before: string | undefined;
  /** Where the job's log is (`CI_JOB_URL`), or the pipeline's (`CI_PIPELINE_URL`). */
  logUrl: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

function value(env: Env, name: string): string | undefined {
  const found = env[name]?.trim();
  return found === undefined || found === "" ? undefined : found;
}

function commit(env: Env, name: string): string | undefined {
  const found = value(env, name);
  return found !== undefined && /^[0-9a-f]{40}$/i.test(found) && !/^0+$/.test(found)
    ? found.toLowerCase()
    : undefined;
}

export function readGitlabCiJob(env: Env): GitlabCiJob {
  // CI_API_V4_URL is CI_SERVER_URL with /api/v4 (a relative URL root included); either will do.
  const api = value(env, "CI_API_V4_URL");
  const serverUrl = value(env, "CI_SERVER_URL") ?? api?.replace(/\/api\/v4\/?$/, "");
  const project = value(env, "CI_PROJECT_ID");
  if (serverUrl === undefined || project === undefined) {
    throw new CliError(
      "ci: not in a GitLab CI job: CI_SERVER_URL (or CI_API_V4_URL) and CI_PROJECT_ID are unset",
    );
  }
  const iidText = value(env, "CI_MERGE_REQUEST_IID");
  if (iidText !== undefined && !/^[1-9][0-9]*$/.test(iidText)) {
    throw new CliError(`ci: CI_MERGE_REQUEST_IID must be a merge request's iid, got '${iidText}'`);
  }
  return {
    serverUrl: serverUrl.replace(/\/+$/, ""),
    project,
    source: value(env, "CI_PIPELINE_SOURCE") ?? "push",
    sha: commit(env, "CI_COMMIT_SHA"),
    branch: value(env, "CI_COMMIT_BRANCH"),
    defaultBranch: value(env, "CI_DEFAULT_BRANCH"),
    mergeRequest: iidText === undefined ? undefined : Number(iidText),
    diffBase: commit(env, "CI_MERGE_REQUEST_DIFF_BASE_SHA"),
    before: commit(env, "CI_COMMIT_BEFORE_SHA"),
    logUrl: value(env, "CI_JOB_URL") ?? value(env, "CI_PIPELINE_URL"),
  };
}

export type CiStep = "plan" | "apply" | "drift";

/**
 * The step a pipeline runs: a merge-request pipeline plans, a scheduled one checks drift, a
 * pipeline of the default branch applies; any other branch plans (with no note to write).
 */
export function stepOf(job: GitlabCiJob): CiStep {
  if (job.source === "merge_request_event") return "plan";
  if (job.source === "schedule") return "drift";
  if (job.branch !== undefined && job.branch === job.defaultBranch) return "apply";
  return "plan";
}
