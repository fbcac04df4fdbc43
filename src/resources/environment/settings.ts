/**
 * How deployment environments are written: `environments: {<name>: {wait_timer,
 * prevent_self_review, reviewers: {users, teams}, deployment_branch_policy}}`, keyed by name in any
 * case; `null` deletes one. An environment that is written is managed whole (what is not written
 * takes GitHub's default: no wait, no reviewers, every branch may deploy), as GitHub's PUT writes
 * its protection whole.
 */
import * as z from "zod";
import { closed, name, orNull } from "../../config/fields.js";
import { defineSetting, type PrintBlock, type RuleProblem } from "../../config/spec.js";

/** "The time (in minutes) must be an integer between 0 and 43,200 (30 days)." (the PUT's schema) */
export const MAX_WAIT_TIMER = 43_200;
/** "You can list up to six users or teams as reviewers." (the PUT's schema) */
export const MAX_REVIEWERS = 6;
/** "An environment name may not exceed 255 characters" (docs.github.com, "Managing environments"). */
const MAX_NAME_CHARACTERS = 255;

const environmentName = z
  .string()
  .refine((text) => text.trim() !== "", { error: "an environment name must not be blank" })
  .refine((text) => [...text].length <= MAX_NAME_CHARACTERS, {
    error: `an environment name has at most ${MAX_NAME_CHARACTERS} characters`,
  });

const namePattern = closed({
  name: name(
    "A name pattern (Ruby's File.fnmatch; * does not match /) branches or tags must match to deploy.",
  ),
  type: z
    .enum(["branch", "tag"])
    .optional()
    .describe("Whether the pattern is for branches (default) or tags."),
});

const deploymentBranchPolicy = z
  .union([
    closed({
      protected_branches: z
        .literal(true)
        .describe("Only branches with branch protection rules may deploy."),
    }),
    closed({
      custom: z
        .array(namePattern)
        .describe(
          "Only branches and tags matching these patterns may deploy; compared as a set, through …/deployment-branch-policies.",
        ),
    }),
    z.null(),
  ])
  .describe(
    "Which branches may deploy: null (default) every branch, {protected_branches: true}, or {custom: [patterns]}.",
  );

const environment = closed({
  wait_timer: z
    .int()
    .min(0)
    .max(MAX_WAIT_TIMER)
    .optional()
    .describe(`Minutes a job waits before it may deploy, 0 (default) to ${MAX_WAIT_TIMER}.`),
  prevent_self_review: z
    .boolean()
    .optional()
    .describe(
      "Whether whoever started a job may not approve it (default false); needs at least one reviewer.",
    ),
  reviewers: closed({
    users: z
      .array(name("A login."))
      .optional()
      .describe("Users who may approve deployments, by login."),
    teams: z
      .array(name("A team slug."))
      .optional()
      .describe("Teams of the organization who may approve deployments, by slug."),
  })
    .optional()
    .describe(
      `Required reviewers (default none), at most ${MAX_REVIEWERS} users and teams together.`,
    ),
  deployment_branch_policy: deploymentBranchPolicy.optional(),
});

const environmentsSchema = z.record(
  environmentName,
  orNull(environment).describe(
    "The environment of this name (names compare case-insensitively), managed whole; null means it must not exist.",
  ),
);

export type EnvironmentSettings = z.output<typeof environment>;
export type Environments = z.output<typeof environmentsSchema>;

/**
 * What defaults, profiles and an entry make of the environments together (a layer may add reviewers
 * to another's, or turn on prevent_self_review): GitHub's limits, and one name per environment,
 * whose names are not case-sensitive.
 */
function environmentRules(value: Environments): RuleProblem[] {
  const first = new Map<string, string>();
  const problems: RuleProblem[] = [];
  for (const [written, settings] of Object.entries(value)) {
    const earlier = first.get(written.toLowerCase());
    if (earlier === undefined) first.set(written.toLowerCase(), written);
    else {
      problems.push({
        path: [written],
        message: `environment names are not case-sensitive: "${earlier}" is the same environment`,
        sameAs: [earlier],
      });
    }
    if (settings !== null) {
      problems.push(
        ...environmentProblems(settings).map((problem) => ({
          ...problem,
          path: [written, ...problem.path],
        })),
      );
    }
  }
  return problems;
}

function environmentProblems(settings: EnvironmentSettings): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const reviewers =
    (settings.reviewers?.users ?? []).length + (settings.reviewers?.teams ?? []).length;
  if (reviewers > MAX_REVIEWERS) {
    problems.push({
      path: ["reviewers"],
      message: `at most ${MAX_REVIEWERS} reviewers, users and teams together (GitHub's limit)`,
    });
  }
  if (settings.prevent_self_review === true && reviewers === 0) {
    problems.push({
      path: ["prevent_self_review"],
      message: "prevent_self_review needs at least one reviewer (GitHub refuses it without)",
    });
  }
  const policy = settings.deployment_branch_policy;
  if (policy && "custom" in policy && "protected_branches" in policy) {
    problems.push({
      path: ["deployment_branch_policy"],
      message: "give either protected_branches or custom, not both",
    });
  }
  const seen = new Set<string>();
  (policy && "custom" in policy ? policy.custom : []).forEach((pattern, index) => {
    const key = `${pattern.type ?? "branch"} ${pattern.name}`;
    if (seen.has(key)) {
      problems.push({
        path: ["deployment_branch_policy", "custom", index],
        message: `the ${pattern.type ?? "branch"} pattern "${pattern.name}" is listed twice`,
      });
    }
    seen.add(key);
  });
  return problems;
}

export const environmentsSetting = defineSetting({
  key: "environments",
  schema: environmentsSchema.describe(
    "Deployment environments by name; those not named are left alone.",
  ),
  rules: environmentRules,
  defines: (value) =>
    Object.keys(value).map((name) => ({
      id: `environment ${name.toLowerCase()}`,
      path: [name],
      what: `environment ${name}`,
    })),
  print: (value) =>
    Object.keys(value).map((name): PrintBlock => ({ kind: "environment", name, path: [name] })),
});
