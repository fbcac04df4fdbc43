import { teamsOf } from "../team/records.js";
import { githubError, type HttpError, isoTime } from "../http.js";
import {
  type Environment,
  type EnvironmentReviewer,
  environmentsOf,
  environmentIds,
} from "./records.js";
import type { Repository, GithubWorld } from "../world/records.js";

/**
 * Deployment environments as GitHub keeps them, and the rules of `PUT …/environments/{name}` a
 * schema cannot say. The body's types and members are checked against GitHub's request schema
 * first (request-rules.ts); its 422s are Basic Errors (`{message, documentation_url}`), as the
 * operation's published 422 answer is.
 */

/** "The time (in minutes) must be an integer between 0 and 43,200 (30 days)." (the PUT's schema). */
export const MAX_WAIT_TIMER = 43_200;
/** "You can list up to six users or teams as reviewers." (the PUT's schema). */
export const MAX_REVIEWERS = 6;

/** The body of `PUT …/environments/{environment_name}`, after GitHub's schema accepted it. */
export interface EnvironmentBody {
  wait_timer?: number;
  prevent_self_review?: boolean;
  reviewers?: Array<{ type?: "User" | "Team"; id?: number }> | null;
  deployment_branch_policy?: {
    protected_branches: boolean;
    custom_branch_policies: boolean;
  } | null;
}

export type EnvironmentFields = Pick<
  Environment,
  "wait_timer" | "prevent_self_review" | "reviewers" | "branchPolicy"
>;

const NEW_ENVIRONMENT: EnvironmentFields = {
  wait_timer: 0,
  prevent_self_review: false,
  reviewers: [],
  branchPolicy: null,
};

function reviewerOf(world: GithubWorld, repo: Repository, item: { type?: string; id?: number }) {
  if (item.type === "Team") {
    const team = [...(repo.org === null ? [] : teamsOf(repo.org).values())].find(
      (candidate) => candidate.id === item.id,
    );
    if (team === undefined) {
      throw githubError(422, `Team ${item.id} is not a team of ${repo.owner.login}`);
    }
    return { type: "Team" as const, team };
  }
  const user = item.id === undefined ? undefined : world.accountsById.get(item.id);
  if (user === undefined || user.type !== "User") {
    throw githubError(422, `User ${item.id} does not exist`);
  }
  // "The reviewers must have at least read access to the repository." (the PUT's schema)
  if (!world.can(repo, user, "pull")) {
    throw githubError(422, `${user.login} does not have read access to the repository`);
  }
  return { type: "User" as const, user };
}

/**
 * What a PUT makes of an environment: members sent replace what it had (a new one starts from
 * GitHub's defaults, no protection at all), members left out keep their value; `null` reviewers are
 * none and a `null` branch policy lets every branch deploy. Throws the 422 GitHub answers.
 */
export function environmentAfter(
  world: GithubWorld,
  repo: Repository,
  current: EnvironmentFields | undefined,
  body: EnvironmentBody,
): EnvironmentFields {
  const base = current ?? NEW_ENVIRONMENT;
  if (body.wait_timer !== undefined && (body.wait_timer < 0 || body.wait_timer > MAX_WAIT_TIMER)) {
    throw githubError(
      422,
      `wait_timer must be an integer between 0 and ${MAX_WAIT_TIMER} (30 days)`,
    );
  }
  let reviewers = base.reviewers;
  if (body.reviewers !== undefined) {
    const sent = body.reviewers ?? [];
    if (sent.length > MAX_REVIEWERS) {
      throw githubError(422, `Only ${MAX_REVIEWERS} users or teams can be required reviewers`);
    }
    reviewers = sent.map((item) => reviewerOf(world, repo, item));
    reviewers = reviewers.filter(
      (reviewer, index) => reviewers.findIndex((other) => sameReviewer(other, reviewer)) === index,
    );
  }
  const policy = body.deployment_branch_policy;
  if (policy && policy.protected_branches === policy.custom_branch_policies) {
    throw githubError(
      422,
      "deployment_branch_policy: exactly one of protected_branches and custom_branch_policies must be true",
    );
  }
  const branchPolicy =
    policy === undefined
      ? base.branchPolicy
      : policy === null
        ? null
        : policy.protected_branches
          ? "protected"
          : "custom";
  const prevent = body.prevent_self_review ?? base.prevent_self_review;
  // GitHub's words, quoted in github-community-projects/safe-settings#628.
  if (prevent && reviewers.length === 0) {
    throw githubError(
      422,
      "Failed to create or update the environment protection rule. Required reviewers must have at least one reviewer to set prevent_self_review.",
    );
  }
  return {
    wait_timer: body.wait_timer ?? base.wait_timer,
    prevent_self_review: prevent,
    reviewers,
    branchPolicy,
  };
}

function sameReviewer(a: EnvironmentReviewer, b: EnvironmentReviewer): boolean {
  if (a.type === "User" && b.type === "User") return a.user.id === b.user.id;
  if (a.type === "Team" && b.type === "Team") return a.team.id === b.team.id;
  return false;
}

/** Stores a PUT's result: a new environment, or the existing one changed. */
export function storeEnvironment(
  world: GithubWorld,
  repo: Repository,
  name: string,
  fields: EnvironmentFields,
  now: number,
): Environment {
  const stamp = isoTime(now);
  const existing = environmentsOf(repo).get(name.toLowerCase());
  if (existing === undefined) {
    const created: Environment = {
      id: environmentIds(world).environment++,
      name,
      ...fields,
      policies: new Map(),
      created_at: stamp,
      updated_at: stamp,
    };
    environmentsOf(repo).set(name.toLowerCase(), created);
    return created;
  }
  // Custom policies belong to the custom setting: turning it off drops them
  // (docs/service-decisions.md).
  if (fields.branchPolicy !== "custom") existing.policies.clear();
  Object.assign(existing, fields, { updated_at: stamp });
  return existing;
}

/**
 * "Environment names are not case sensitive. An environment name may not exceed 255 characters and
 * must be unique within the repository." (docs.github.com, "Managing environments for deployment")
 */
export function environmentNameProblem(name: string): HttpError | undefined {
  if (name.trim() === "" || [...name].length > 255) {
    return githubError(422, `Environment name '${name}' is invalid`);
  }
  return undefined;
}
