import * as z from "zod";
import {
  allNodes,
  type ConnectionPage,
  type MoreNodes,
  type Pages,
  pageOf,
  type RepositoryGraphqlRead,
  RestAnswers,
} from "../graphql-read.js";
import type { BranchProtections } from "./settings.js";
import { protectionPath } from "../classic-protection.js";

/**
 * Branch protections over GraphQL: each configured branch's `ref` and the `branchProtectionRule`
 * that protects it, turned into the Protected Branch record `GET …/branches/{branch}/protection`
 * answers — the fields as terraform-provider-github maps them between the two
 * (github/util_v4_branch_protection.go: `requiresApprovingReviews` is whether reviews are required,
 * `restrictsPushes` whether `restrictions` is set, the allowance connections the principal lists).
 *
 * Read over REST instead: a repository the token does not administer (`viewerCanAdminister`
 * false: REST's answer, a 403 or 404, is the error to show), and a branch protected by a rule
 * whose pattern is not its name (a wildcard rule: the REST record and its PUT are the branch's own)
 * or naming an actor GraphQL does not show.
 */

const ACTORS =
  "actor { __typename ... on User { login } ... on Team { slug } ... on App { slug } }";

export const RULE_FRAGMENT = `fragment ProtectionRule on BranchProtectionRule {
  id pattern isAdminEnforced requiresCommitSignatures
  requiresApprovingReviews requiredApprovingReviewCount dismissesStaleReviews
  requiresCodeOwnerReviews requireLastPushApproval restrictsReviewDismissals
  reviewDismissalAllowances(first: 100) { ${pageOf(ACTORS)} }
  bypassPullRequestAllowances(first: 100) { ${pageOf(ACTORS)} }
  restrictsPushes pushAllowances(first: 100) { ${pageOf(ACTORS)} }
  requiresStatusChecks requiresStrictStatusChecks requiredStatusChecks { context app { databaseId } }
  requiresLinearHistory allowsForcePushes allowsDeletions blocksCreations
  requiresConversationResolution lockBranch lockAllowsFetchAndMerge
}`;

const page = z.looseObject({
  pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  nodes: z.array(z.unknown()),
});

const actor = z.looseObject({
  actor: z.union([
    z.looseObject({ __typename: z.literal("User"), login: z.string() }),
    z.looseObject({ __typename: z.literal("Team"), slug: z.string() }),
    z.looseObject({ __typename: z.literal("App"), slug: z.string() }),
  ]),
});

const rule = z.looseObject({
  id: z.string(),
  pattern: z.string(),
  isAdminEnforced: z.boolean(),
  requiresCommitSignatures: z.boolean(),
  requiresApprovingReviews: z.boolean(),
  requiredApprovingReviewCount: z.number().int().nullable(),
  dismissesStaleReviews: z.boolean(),
  requiresCodeOwnerReviews: z.boolean(),
  requireLastPushApproval: z.boolean(),
  restrictsReviewDismissals: z.boolean(),
  reviewDismissalAllowances: page,
  bypassPullRequestAllowances: page,
  restrictsPushes: z.boolean(),
  pushAllowances: page,
  requiresStatusChecks: z.boolean(),
  requiresStrictStatusChecks: z.boolean(),
  requiredStatusChecks: z
    .array(
      z.looseObject({
        context: z.string(),
        app: z.looseObject({ databaseId: z.number().int().nullable() }).nullable(),
      }),
    )
    .nullable(),
  requiresLinearHistory: z.boolean(),
  allowsForcePushes: z.boolean(),
  allowsDeletions: z.boolean(),
  blocksCreations: z.boolean(),
  requiresConversationResolution: z.boolean(),
  lockBranch: z.boolean(),
  lockAllowsFetchAndMerge: z.boolean(),
});
type Rule = z.infer<typeof rule>;

const ref = z.looseObject({ name: z.string(), branchProtectionRule: rule.nullable() }).nullable();

type Lists = {
  users: Array<{ login: string }>;
  teams: Array<{ slug: string }>;
  apps: Array<{ slug: string }>;
};

/**
 * A connection's actors as REST's principal lists; undefined when a page could not be read or holds
 * an error, or an actor is not a user, team or app.
 */
async function principals(
  first: ConnectionPage,
  more: (after: string) => Promise<MoreNodes | undefined>,
): Promise<Lists | undefined> {
  const all = await allNodes(first, () => false, more);
  if (all === undefined || all.failed.size > 0) return undefined;
  const lists: Lists = { users: [], teams: [], apps: [] };
  for (const node of all.nodes) {
    const parsed = actor.safeParse(node);
    if (!parsed.success) return undefined;
    const named = parsed.data.actor;
    if (named.__typename === "User") lists.users.push({ login: named.login });
    else if (named.__typename === "Team") lists.teams.push({ slug: named.slug });
    else lists.apps.push({ slug: named.slug });
  }
  return lists;
}

/** The Protected Branch record REST answers for this rule; undefined when GraphQL cannot say it. */
async function protectedBranch(path: string, value: Rule, pages: Pages) {
  const lists = (
    field: "reviewDismissalAllowances" | "bypassPullRequestAllowances" | "pushAllowances",
  ) =>
    principals(value[field], (after) =>
      pages.rest({
        on: { node: value.id, type: "BranchProtectionRule" },
        field,
        nodes: ACTORS,
        after,
      }),
    );
  const [dismissal, bypass, push] = await Promise.all([
    lists("reviewDismissalAllowances"),
    lists("bypassPullRequestAllowances"),
    lists("pushAllowances"),
  ]);
  if (dismissal === undefined || bypass === undefined || push === undefined) return undefined;
  const checks = value.requiredStatusChecks ?? [];
  const flag = (enabled: boolean) => ({ enabled });
  return {
    url: path,
    ...(value.requiresStatusChecks
      ? {
          required_status_checks: {
            strict: value.requiresStrictStatusChecks,
            contexts: checks.map((check) => check.context),
            checks: checks.map((check) => ({
              context: check.context,
              app_id: check.app?.databaseId ?? null,
            })),
          },
        }
      : {}),
    enforce_admins: flag(value.isAdminEnforced),
    ...(value.requiresApprovingReviews
      ? {
          required_pull_request_reviews: {
            dismiss_stale_reviews: value.dismissesStaleReviews,
            require_code_owner_reviews: value.requiresCodeOwnerReviews,
            ...(value.requiredApprovingReviewCount !== null
              ? { required_approving_review_count: value.requiredApprovingReviewCount }
              : {}),
            require_last_push_approval: value.requireLastPushApproval,
            ...(value.restrictsReviewDismissals ? { dismissal_restrictions: dismissal } : {}),
            bypass_pull_request_allowances: bypass,
          },
        }
      : {}),
    ...(value.restrictsPushes ? { restrictions: push } : {}),
    required_signatures: flag(value.requiresCommitSignatures),
    required_linear_history: flag(value.requiresLinearHistory),
    allow_force_pushes: flag(value.allowsForcePushes),
    allow_deletions: flag(value.allowsDeletions),
    block_creations: flag(value.blocksCreations),
    required_conversation_resolution: flag(value.requiresConversationResolution),
    lock_branch: flag(value.lockBranch),
    allow_fork_syncing: flag(value.lockAllowsFetchAndMerge),
  };
}

const alias = (index: number) => `b${index}`;

export const protectionGraphql: RepositoryGraphqlRead<BranchProtections> = {
  fragments: RULE_FRAGMENT,
  select: ({ value, variables }) => {
    const branches = Object.keys(value);
    if (branches.length === 0) return undefined;
    const refs = branches.map(
      (branch, index) =>
        `${alias(index)}: ref(qualifiedName: ${variables.add("String!", `refs/heads/${branch}`)}) { name branchProtectionRule { ...ProtectionRule } }`,
    );
    return `viewerCanAdminister ${refs.join(" ")}`;
  },
  answer: async ({ repo, value, data, failed, pages }) => {
    const answers = new RestAnswers();
    const administered = z.looseObject({ viewerCanAdminister: z.literal(true) }).safeParse(data);
    if (!administered.success || failed(["viewerCanAdminister"])) return answers;
    const refs = data as Record<string, unknown>;
    await Promise.all(
      Object.keys(value).map(async (branch, index) => {
        const read = ref.safeParse(refs[alias(index)]);
        if (!read.success || failed([alias(index)])) return;
        const path = protectionPath(repo, branch);
        const found = read.data?.branchProtectionRule;
        // REST's 404s, with its words for each.
        if (read.data === null) answers.absent(path, "Branch not found");
        else if (found === null || found === undefined)
          answers.absent(path, "Branch not protected");
        else if (found.pattern === branch) {
          const record = await protectedBranch(path, found, pages);
          if (record !== undefined) answers.found(path, record);
        }
      }),
    );
    return answers;
  },
};
