import { teamsOf } from "../team/records.js";
import { isoTime, type RequestContext } from "../http.js";
import {
  type BypassReviewer,
  type Repository,
  type RepositorySettings,
  SECURITY_FEATURES,
  type GithubWorld,
} from "../world/records.js";
import { nameTaken, refusedName } from "./names.js";

/**
 * `PATCH /repos/{owner}/{repo}` as GitHub applies it: the body's types and keys are checked against
 * GitHub's request schema before the route runs (request-rules.ts); what is left here are the rules
 * a schema cannot say, each refused with a 422 before anything is changed.
 */

type Body = Record<string, unknown>;

const FLAGS = [
  "has_issues",
  "has_projects",
  "has_wiki",
  "is_template",
  "allow_forking",
  "allow_auto_merge",
  "delete_branch_on_merge",
  "allow_update_branch",
  "web_commit_signoff_required",
] as const satisfies ReadonlyArray<keyof RepositorySettings>;

const MERGE_FLAGS = ["allow_squash_merge", "allow_rebase_merge", "allow_merge_commit"] as const;

/**
 * The commit-message defaults GitHub's settings page offers, title with message: "Default message"
 * (COMMIT_OR_PR_TITLE with COMMIT_MESSAGES), "Pull request title" (PR_TITLE with BLANK), "Pull
 * request title and commit details" (PR_TITLE with COMMIT_MESSAGES) and "Pull request title and
 * description" (PR_TITLE with PR_BODY); for merge commits "Default message" (MERGE_MESSAGE with
 * PR_TITLE), "Pull request title" (PR_TITLE with BLANK) and "Pull request title and description"
 * (PR_TITLE with PR_BODY) — docs.github.com, "Configuring commit squashing for pull requests" and
 * "Configuring commit merging for pull requests". The request schema says the title is "Required
 * when using" the message.
 */
export const COMMIT_MESSAGE_PAIRS = {
  squash: {
    title: "squash_merge_commit_title",
    message: "squash_merge_commit_message",
    pairs: [
      "COMMIT_OR_PR_TITLE/COMMIT_MESSAGES",
      "PR_TITLE/BLANK",
      "PR_TITLE/COMMIT_MESSAGES",
      "PR_TITLE/PR_BODY",
    ],
  },
  merge: {
    title: "merge_commit_title",
    message: "merge_commit_message",
    pairs: ["MERGE_MESSAGE/PR_TITLE", "PR_TITLE/BLANK", "PR_TITLE/PR_BODY"],
  },
} as const;

function commitMessageProblems(repo: Repository, body: Body): string[] {
  const problems: string[] = [];
  for (const { title, message, pairs } of Object.values(COMMIT_MESSAGE_PAIRS)) {
    if (body[title] === undefined && body[message] === undefined) continue;
    if (body[title] === undefined) {
      problems.push(`${title} is required when using ${message}`);
      continue;
    }
    const pair = `${String(body[title] ?? repo[title])}/${String(body[message] ?? repo[message])}`;
    if (!(pairs as readonly string[]).includes(pair)) {
      problems.push(
        `${title} ${String(body[title] ?? repo[title])} cannot be used with ${message} ${String(body[message] ?? repo[message])}`,
      );
    }
  }
  return problems;
}

/**
 * Branch names are case-sensitive; an empty repository has no branch to make the default
 * ("Cannot update default branch for an empty repository. Please init the repository and push
 * first.", GitHub's 422 quoted in fluxcd/go-git-providers#67), and a branch that does not exist
 * cannot be one (repository-settings/app#933: "changing `default_branch` requires the target
 * default to already exist").
 */
function defaultBranchProblem(repo: Repository, branch: unknown): string | undefined {
  if (typeof branch !== "string" || branch === repo.default_branch) return undefined;
  if (repo.branches.size === 0) {
    return "Cannot update default branch for an empty repository. Please init the repository and push first.";
  }
  return repo.branches.has(branch) ? undefined : `default_branch: branch ${branch} does not exist`;
}

type Security = Record<string, { status?: unknown } | undefined> & {
  secret_scanning_delegated_bypass_options?: { reviewers?: BypassReviewer[] };
};

function securityProblems(repo: Repository, security: Security | null | undefined): string[] {
  if (security === null || security === undefined) return [];
  const problems: string[] = [];
  for (const feature of SECURITY_FEATURES) {
    const status = security[feature]?.status;
    if (status !== undefined && status !== "enabled" && status !== "disabled") {
      problems.push(
        `security_and_analysis.${feature}.status: can be enabled or disabled, got ${JSON.stringify(status)}`,
      );
    }
  }
  for (const reviewer of security.secret_scanning_delegated_bypass_options?.reviewers ?? []) {
    const team =
      repo.org === null
        ? undefined
        : [...teamsOf(repo.org).values()].find((found) => found.id === reviewer.reviewer_id);
    if (reviewer.reviewer_type === "TEAM" && team === undefined) {
      problems.push(
        `secret_scanning_delegated_bypass_options: team ${reviewer.reviewer_id} is not a team of ${repo.owner.login}`,
      );
    }
  }
  return problems;
}

/** Refuses what GitHub would refuse of the body, changing nothing; returns the 422's lines. */
function problemsOf(ctx: RequestContext, repo: Repository, body: Body): string[] {
  const problems = [...commitMessageProblems(repo, body)];
  const branch = defaultBranchProblem(repo, body.default_branch);
  if (branch !== undefined) problems.push(branch);
  problems.push(
    ...securityProblems(repo, body.security_and_analysis as Security | null | undefined),
  );
  if (typeof body.name === "string" && body.name.toLowerCase() !== repo.name.toLowerCase()) {
    const refused =
      refusedName(body.name) ??
      (nameTaken(ctx.world, repo.owner, body.name)
        ? "name already exists on this account"
        : undefined);
    if (refused !== undefined) problems.push(refused);
  }
  return problems;
}

/** The repository's visibility after the body: `visibility` wins over the older `private`. */
function privateAfter(repo: Repository, body: Body): boolean {
  if (body.visibility !== undefined) return body.visibility === "private";
  if (body.private !== undefined) return body.private === true;
  return repo.private;
}

function applySecurity(repo: Repository, security: Security): void {
  for (const feature of SECURITY_FEATURES) {
    const status = security[feature]?.status;
    if (status === "enabled" || status === "disabled") repo.security[feature] = status;
  }
  // "If you omit this field, the existing set of reviewers is unchanged" (the request schema).
  const reviewers = security.secret_scanning_delegated_bypass_options?.reviewers;
  if (reviewers !== undefined) {
    repo.bypassReviewers = reviewers.map((reviewer) => ({
      reviewer_id: reviewer.reviewer_id,
      reviewer_type: reviewer.reviewer_type,
      mode: reviewer.mode ?? "ALWAYS",
    }));
  }
}

/** Applies a checked body; a repository made private loses private vulnerability reporting. */
function applyBody(world: GithubWorld, repo: Repository, body: Body, now: number): void {
  if (typeof body.description === "string")
    repo.description = body.description === "" ? null : body.description;
  if (typeof body.homepage === "string")
    repo.homepage = body.homepage === "" ? null : body.homepage;
  for (const flag of [...FLAGS, ...MERGE_FLAGS]) {
    if (typeof body[flag] === "boolean") repo[flag] = body[flag];
  }
  for (const { title, message } of Object.values(COMMIT_MESSAGE_PAIRS)) {
    if (body[title] !== undefined) (repo as unknown as Body)[title] = body[title];
    if (body[message] !== undefined) (repo as unknown as Body)[message] = body[message];
  }
  if (typeof body.default_branch === "string") repo.default_branch = body.default_branch;
  const wasPrivate = repo.private;
  repo.private = privateAfter(repo, body);
  if (repo.private && !wasPrivate) repo.private_vulnerability_reporting = false;
  const security = body.security_and_analysis as Security | null | undefined;
  if (security) applySecurity(repo, security);
  if (typeof body.archived === "boolean") repo.archived = body.archived;
  if (typeof body.name === "string" && body.name !== repo.name)
    world.renameRepository(repo, body.name);
  repo.updated_at = isoTime(now);
}

/** Checks the body against GitHub's rules and applies it, or throws the 422 having changed nothing. */
export function editRepository(ctx: RequestContext, repo: Repository, body: Body): void {
  const problems = problemsOf(ctx, repo, body);
  if (problems.length > 0) throw ctx.invalid(problems, "Repository");
  applyBody(ctx.world, repo, body, ctx.now());
}
