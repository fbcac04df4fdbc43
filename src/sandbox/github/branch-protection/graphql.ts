import type { Branch, Repository } from "../world/records.js";
import { type Principals, type Protection, protectionOf } from "./records.js";
import { connection, type PageArgs } from "../graphql/connection.js";
import { type GraphqlContext, type GraphqlPart, requireAppPermission } from "../graphql/context.js";
import { forbidden } from "../graphql/errors.js";
import { nodeId } from "../graphql/ids.js";
import { accountObject, appObject, teamObject } from "../graphql/resolvers/actors.js";

/**
 * Branches and their protection: `Repository.ref`, `Repository.branchProtectionRules` and the
 * `BranchProtectionRule` type, over the same record the REST protection routes keep
 * (../branch-protection/record.ts). A REST PUT makes a rule whose pattern is the branch's name
 * (GitHub: protecting a branch over REST creates the rule for exactly that name; patterns need
 * GraphQL, the spec's endpoint 1), so every rule here has that pattern and matches its branch.
 *
 * The REST record maps onto the rule's fields as terraform-provider-github reads them
 * (github/util_v4_branch_protection.go): `requiresApprovingReviews` is whether pull request
 * reviews are required at all, `restrictsPushes` whether `restrictions` is set,
 * `restrictsReviewDismissals` whether dismissal is restricted, and the actor lists are the
 * allowance connections.
 */

const QUALIFIED_BRANCH = "refs/heads/";

/** Reading a protection takes admin rights, or an App's Administration read, as over REST. */
function mayReadProtection(ctx: GraphqlContext, repo: Repository): void {
  requireAppPermission(ctx, "administration", "read");
  if (!ctx.world.can(repo, ctx.caller, "admin")) {
    throw forbidden("Must have admin rights to Repository.");
  }
}

function allowances(
  ctx: GraphqlContext,
  typename: string,
  rule: string,
  principals: Principals | null,
) {
  if (principals === null) return [];
  return [
    ...principals.users.map((user) => ({
      key: `User:${user.id}`,
      actor: accountObject(ctx, user),
    })),
    ...principals.teams.map((team) => ({ key: `Team:${team.id}`, actor: teamObject(ctx, team) })),
    ...principals.apps.map((app) => ({ key: `App:${app.id}`, actor: appObject(ctx, app) })),
  ].map(({ key, actor }) => ({
    __typename: typename,
    id: nodeId(typename, `${rule}:${key}`),
    actor,
  }));
}

export function ruleObject(
  ctx: GraphqlContext,
  repo: Repository,
  branch: Branch,
  value: Protection,
) {
  const id = nodeId("BranchProtectionRule", `${repo.id}:${branch.name}`);
  const reviews = value.required_pull_request_reviews;
  const checks = value.required_status_checks;
  const page =
    (field: string, typename: string, principals: Principals | null) => (args: PageArgs) =>
      connection(field, allowances(ctx, typename, id, principals), args, (item) => item);
  return {
    __typename: "BranchProtectionRule",
    id,
    databaseId: null,
    pattern: branch.name,
    creator: null,
    repository: () => repositoryRef(repo),
    isAdminEnforced: value.enforce_admins,
    requiresApprovingReviews: reviews !== null,
    requiredApprovingReviewCount: reviews?.required_approving_review_count ?? null,
    dismissesStaleReviews: reviews?.dismiss_stale_reviews ?? false,
    requiresCodeOwnerReviews: reviews?.require_code_owner_reviews ?? false,
    requireLastPushApproval: reviews?.require_last_push_approval ?? false,
    restrictsReviewDismissals: reviews?.dismissal_restrictions != null,
    reviewDismissalAllowances: page(
      "reviewDismissalAllowances",
      "ReviewDismissalAllowance",
      reviews?.dismissal_restrictions ?? null,
    ),
    bypassPullRequestAllowances: page(
      "bypassPullRequestAllowances",
      "BypassPullRequestAllowance",
      reviews?.bypass_pull_request_allowances ?? null,
    ),
    bypassForcePushAllowances: page("bypassForcePushAllowances", "BypassForcePushAllowance", null),
    restrictsPushes: value.restrictions !== null,
    pushAllowances: page("pushAllowances", "PushAllowance", value.restrictions),
    requiresStatusChecks: checks !== null,
    requiresStrictStatusChecks: checks?.strict ?? false,
    requiredStatusCheckContexts: checks?.checks.map((check) => check.context) ?? [],
    requiredStatusChecks:
      checks?.checks.map((check) => {
        const app = check.app_id === null ? undefined : ctx.world.appsById.get(check.app_id);
        return { context: check.context, app: app ? appObject(ctx, app) : null };
      }) ?? [],
    requiresCommitSignatures: value.required_signatures,
    requiresLinearHistory: value.required_linear_history,
    allowsForcePushes: value.allow_force_pushes,
    allowsDeletions: value.allow_deletions,
    blocksCreations: value.block_creations,
    requiresConversationResolution: value.required_conversation_resolution,
    lockBranch: value.lock_branch,
    lockAllowsFetchAndMerge: value.allow_fork_syncing,
    requiresDeployments: false,
    requiredDeploymentEnvironments: [],
    matchingRefs: (args: PageArgs) =>
      connection("matchingRefs", [branch], args, (item) => refObject(ctx, repo, item)),
    branchProtectionRuleConflicts: (args: PageArgs) =>
      connection("branchProtectionRuleConflicts", [], args, (item) => item),
  };
}

/** The rule's `repository`, by its id: a rule never leads back into the whole repository object. */
function repositoryRef(repo: Repository) {
  return { __typename: "Repository", id: nodeId("Repository", repo.id), name: repo.name };
}

export function refObject(ctx: GraphqlContext, repo: Repository, branch: Branch) {
  return {
    __typename: "Ref",
    id: nodeId("Ref", `${repo.id}:${QUALIFIED_BRANCH}${branch.name}`),
    name: branch.name,
    prefix: QUALIFIED_BRANCH,
    branchProtectionRule: () => {
      const protection = protectionOf(branch);
      if (protection === null) return null;
      mayReadProtection(ctx, repo);
      return ruleObject(ctx, repo, branch, protection);
    },
  };
}

/** A branch by its qualified name (`refs/heads/main`) or, failing that, its short name (`main`). */
function branchNamed(repo: Repository, qualifiedName: string): Branch | undefined {
  if (qualifiedName.startsWith(QUALIFIED_BRANCH)) {
    const found = repo.branches.get(qualifiedName.slice(QUALIFIED_BRANCH.length));
    if (found) return found;
  }
  return repo.branches.get(qualifiedName);
}

/** The fields of Repository this area answers. */
export function protectionFields(ctx: GraphqlContext, repo: Repository) {
  return {
    ref: ({ qualifiedName }: { qualifiedName: string }) => {
      const branch = branchNamed(repo, qualifiedName);
      return branch ? refObject(ctx, repo, branch) : null;
    },
    branchProtectionRules: (args: PageArgs) => {
      mayReadProtection(ctx, repo);
      const protectedBranches = [...repo.branches.values()].flatMap((branch) => {
        const protection = protectionOf(branch);
        return protection === null ? [] : [{ branch, protection }];
      });
      return connection(
        "branchProtectionRules",
        protectedBranches,
        args,
        ({ branch, protection }) => ruleObject(ctx, repo, branch, protection),
      );
    },
  };
}

/** This area's part of the schema: `Repository.ref` and its rules, and rules by id. */
export const protectionGraphql: GraphqlPart = {
  repository: protectionFields,
  nodes: {
    BranchProtectionRule: (ctx, key) => {
      const colon = key.indexOf(":");
      const repo = ctx.world.repositoriesById.get(Number(key.slice(0, colon)));
      const branch = repo?.branches.get(key.slice(colon + 1));
      const protection = branch === undefined ? null : protectionOf(branch);
      if (!repo || !branch || !protection || !ctx.world.can(repo, ctx.caller, "admin")) return null;
      return ruleObject(ctx, repo, branch, protection);
    },
  },
};
