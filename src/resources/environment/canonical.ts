/**
 * A deployment environment as forgeplan compares it: GitHub's Environment read shape (protection
 * rules as a list of typed rules) normalized into the write shape, reviewers as lower-case logins
 * and slugs, custom branch policies as a sorted set.
 */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { principalSet } from "../principals.js";

const readReviewer = z.looseObject({
  type: z.enum(["User", "Team"]),
  reviewer: z.looseObject({
    id: z.number().int(),
    login: z.string().optional(),
    slug: z.string().optional(),
  }),
});

const readRule = z.looseObject({
  type: z.string(),
  wait_timer: z.number().int().optional(),
  prevent_self_review: z.boolean().optional(),
  reviewers: z.array(readReviewer).optional(),
});

/** GitHub's Environment, as listed and as a PUT answers. */
export const readEnvironment = z.looseObject({
  name: z.string().min(1),
  protection_rules: z.array(readRule).optional(),
  deployment_branch_policy: z
    .looseObject({ protected_branches: z.boolean(), custom_branch_policies: z.boolean() })
    .nullable()
    .optional(),
});
export type ReadEnvironment = z.infer<typeof readEnvironment>;

export const ENVIRONMENT_SHAPE = { name: "environments", schema: readEnvironment };

/** GitHub's Deployment branch policy. */
export const readPolicy = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(["branch", "tag"]).optional(),
});
export type ReadPolicy = z.infer<typeof readPolicy>;

export const POLICY_SHAPE = { name: "deployment branch policies", schema: readPolicy };

export interface CanonicalPattern {
  name: string;
  type: "branch" | "tag";
}

export type CanonicalBranchPolicy =
  null | { protected_branches: true } | { custom: CanonicalPattern[] };

export interface CanonicalEnvironment {
  wait_timer: number;
  prevent_self_review: boolean;
  reviewers: { users: string[]; teams: string[] };
  deployment_branch_policy: CanonicalBranchPolicy;
}

/** How the live environment lets branches deploy, before its custom policies are read. */
export type PolicyKind = "all" | "protected" | "custom";

export function policyKindOf(env: ReadEnvironment): PolicyKind {
  const policy = env.deployment_branch_policy;
  if (policy === null || policy === undefined) return "all";
  return policy.custom_branch_policies ? "custom" : "protected";
}

export function patternSet(patterns: readonly CanonicalPattern[]): CanonicalPattern[] {
  const unique = new Map(patterns.map((pattern) => [`${pattern.type} ${pattern.name}`, pattern]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
}

export function patternOf(policy: { name: string; type?: "branch" | "tag" }): CanonicalPattern {
  return { name: policy.name, type: policy.type ?? "branch" };
}

/** The reviewers a read names, as the logins and slugs they are written with. */
export function reviewersOf(env: ReadEnvironment): { users: string[]; teams: string[] } {
  const rule = env.protection_rules?.find((candidate) => candidate.type === "required_reviewers");
  const reviewers = rule?.reviewers ?? [];
  const named = (type: "User" | "Team") =>
    reviewers
      .filter((reviewer) => reviewer.type === type)
      .map(
        (reviewer) => (type === "User" ? reviewer.reviewer.login : reviewer.reviewer.slug) ?? "",
      );
  return { users: named("User"), teams: named("Team") };
}

/** The live environment; its custom patterns come from its own listing (undefined: not custom). */
export function fromRead(
  env: ReadEnvironment,
  patterns: readonly CanonicalPattern[] | undefined,
): CanonicalEnvironment {
  const rules = env.protection_rules ?? [];
  const reviewers = reviewersOf(env);
  const required = rules.find((rule) => rule.type === "required_reviewers");
  const kind = policyKindOf(env);
  return {
    wait_timer: rules.find((rule) => rule.type === "wait_timer")?.wait_timer ?? 0,
    // Without reviewers GitHub shows no required_reviewers rule, and nothing to prevent.
    prevent_self_review: required?.prevent_self_review ?? false,
    reviewers: { users: principalSet(reviewers.users), teams: principalSet(reviewers.teams) },
    deployment_branch_policy:
      kind === "all"
        ? null
        : kind === "protected"
          ? { protected_branches: true }
          : { custom: patternSet(patterns ?? []) },
  };
}

interface SentEnvironment {
  wait_timer: number;
  prevent_self_review: boolean;
  reviewers: Array<{ type: "User" | "Team"; id: number }>;
  deployment_branch_policy: { protected_branches: boolean; custom_branch_policies: boolean } | null;
}

/**
 * What an answer to a write lacks of what was sent: the environment a PUT wrote (its reviewers by
 * id), or the pattern a POST of a custom policy made.
 */
export function verifyEnvironmentWrite(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.path.endsWith("/deployment-branch-policies")) {
    const parsed = readPolicy.safeParse(response);
    if (!parsed.success)
      return [{ path: "(response)", before: "a policy", after: "something else" }];
    return diffValues(patternOf(request.body as CanonicalPattern), patternOf(parsed.data));
  }
  const parsed = readEnvironment.safeParse(response);
  if (!parsed.success) {
    return [{ path: "(response)", before: "an environment", after: "something else" }];
  }
  const sent = request.body as SentEnvironment;
  const live = fromRead(parsed.data, []);
  const reviewers = parsed.data.protection_rules?.find(
    (rule) => rule.type === "required_reviewers",
  );
  const ids = (list: ReadonlyArray<{ type: string; id: number }>) =>
    list.map((reviewer) => `${reviewer.type} ${reviewer.id}`).sort();
  const kind = (policy: SentEnvironment["deployment_branch_policy"]): PolicyKind =>
    policy === null ? "all" : policy.custom_branch_policies ? "custom" : "protected";
  return diffValues(
    {
      wait_timer: sent.wait_timer,
      prevent_self_review: sent.prevent_self_review,
      reviewers: ids(sent.reviewers),
      deployment_branch_policy: kind(sent.deployment_branch_policy),
    },
    {
      wait_timer: live.wait_timer,
      prevent_self_review: live.prevent_self_review,
      reviewers: ids(
        (reviewers?.reviewers ?? []).map((item) => ({ type: item.type, id: item.reviewer.id })),
      ),
      deployment_branch_policy: policyKindOf(parsed.data),
    },
  );
}
