/**
 * How branch protection is written in the configuration (`branch_protection: {<branch>: …}`): every
 * field of the service's PUT body, each optional (a field not written is not managed), and the rules
 * the service enforces that can be checked before any request.
 */
import * as z from "zod";
import { closed, name, nameList, orNull } from "../../config/fields.js";
import { defineSetting, type EntryFacts, type RuleProblem } from "../../config/spec.js";

/** The spec's limit on users + teams + apps across a branch protection's lists. */
export const MAX_PROTECTION_ACTORS = 100;

/** A branch name as the REST endpoint takes it: non-empty, without wildcard characters. */
const WILDCARD_FREE_BRANCH = /^[^*?[]+$/;

const WILDCARD_BRANCH_MESSAGE =
  "branch names cannot hold wildcards (*, ? or [): the service refuses them here; wildcard patterns need the GraphQL API";

const actorLists = (what: string) =>
  closed({
    users: nameList("A user login.").optional().describe(`Users (logins) ${what}.`),
    teams: nameList("A team slug.").optional().describe(`Teams (slugs) ${what}.`),
    apps: nameList("An app slug.").optional().describe(`Apps (slugs) ${what}.`),
  });

const statusCheck = closed({
  context: name("The name of the check, e.g. ci/build."),
  app_id: z
    .int()
    .min(-1)
    .optional()
    .describe(
      "The app that must provide the check; -1 allows any app; leave out to use the app that recently provided it.",
    ),
});

const requiredStatusChecks = closed({
  strict: z
    .boolean()
    .optional()
    .describe("Branches must be up to date with the base branch before merging."),
  contexts: nameList("A status check context.")
    .optional()
    .describe("Closing down in the service: use checks. Required status check contexts."),
  checks: z
    .array(statusCheck)
    .optional()
    .describe(
      "Required status checks, each with its context and optionally the app that must provide it.",
    ),
})
  // The rule branchProtectionProblems checks, said in the JSON Schema too, so editors flag it.
  .meta({ not: { required: ["contexts", "checks"] } });

const requiredPullRequestReviews = closed({
  dismissal_restrictions: actorLists("who may dismiss reviews")
    .optional()
    .describe(
      "Who may dismiss pull request reviews; an empty mapping lifts the restriction, empty lists restrict dismissal to admins. Users and teams only for organization-owned repositories.",
    ),
  dismiss_stale_reviews: z
    .boolean()
    .optional()
    .describe("Dismiss approvals when new commits are pushed."),
  require_code_owner_reviews: z
    .boolean()
    .optional()
    .describe("Require a review from a code owner."),
  required_approving_review_count: z
    .int()
    .min(0)
    .max(6)
    .optional()
    .describe("Approvals required before merging: 1 to 6, or 0 for none."),
  require_last_push_approval: z
    .boolean()
    .optional()
    .describe("The most recent push must be approved by someone other than the pusher."),
  bypass_pull_request_allowances: actorLists("allowed to bypass pull request requirements")
    .optional()
    .describe("Who may bypass the pull request requirements."),
});

const pushRestrictions = closed({
  users: nameList("A user login.").describe("Users (logins) with push access."),
  teams: nameList("A team slug.").describe("Teams (slugs) with push access."),
  apps: nameList("An app slug.").optional().describe("Apps (slugs) with push access."),
});

export const branchProtectionSettings = closed({
  required_status_checks: orNull(requiredStatusChecks)
    .optional()
    .describe("Status checks that must pass before merging; null disables the requirement."),
  enforce_admins: orNull(z.boolean())
    .optional()
    .describe("Enforce the rules for administrators too; null or false disables."),
  required_pull_request_reviews: orNull(requiredPullRequestReviews)
    .optional()
    .describe("Pull request review requirements; null disables them."),
  restrictions: orNull(pushRestrictions)
    .optional()
    .describe(
      "Who may push; null lets everyone with write access push. Only for organization-owned repositories.",
    ),
  required_linear_history: z
    .boolean()
    .optional()
    .describe("Forbid merge commits; the repository must allow squash or rebase merging."),
  allow_force_pushes: orNull(z.boolean())
    .optional()
    .describe("Allow force pushes to the branch; null or false blocks them."),
  allow_deletions: z.boolean().optional().describe("Allow deleting the branch."),
  block_creations: z
    .boolean()
    .optional()
    .describe(
      "Push restrictions also block creating matching branches, except for those allowed to push.",
    ),
  required_conversation_resolution: z
    .boolean()
    .optional()
    .describe("All review conversations must be resolved before merging."),
  lock_branch: z.boolean().optional().describe("Make the branch read-only."),
  allow_fork_syncing: z
    .boolean()
    .optional()
    .describe("Allow pulling upstream changes into a fork while the branch is locked."),
});

export type BranchProtectionSettings = z.infer<typeof branchProtectionSettings>;

const branchName = z.string().regex(WILDCARD_FREE_BRANCH, { error: WILDCARD_BRANCH_MESSAGE });

/** Protection per branch: the settings, or null for "this branch must be unprotected". */
const branchProtections = z
  .record(
    branchName,
    orNull(branchProtectionSettings).describe(
      "The protection of this branch; null means the branch must be unprotected.",
    ),
  )
  .superRefine((branches, context) => {
    for (const [branch, settings] of Object.entries(branches)) {
      if (settings === null) continue;
      for (const problem of branchProtectionProblems(settings)) {
        context.addIssue({
          code: "custom",
          path: [branch, ...problem.path],
          message: problem.message,
        });
      }
    }
  })
  .describe(
    "Protection per branch name (no wildcards); null means the branch must be unprotected.",
  );

export type BranchProtections = z.infer<typeof branchProtections>;

interface ActorLists {
  users?: readonly string[];
  teams?: readonly string[];
  apps?: readonly string[];
}

function actors(lists: ActorLists | null | undefined): number {
  if (lists === null || lists === undefined) return 0;
  return (lists.users?.length ?? 0) + (lists.teams?.length ?? 0) + (lists.apps?.length ?? 0);
}
/** Rules of one branch's settings that hold whoever owns the repository. */
export function branchProtectionProblems(settings: BranchProtectionSettings): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const checks = settings.required_status_checks;
  if (checks?.contexts !== undefined && checks.checks !== undefined) {
    problems.push({
      path: ["required_status_checks", "contexts"],
      message:
        "contexts and checks are both set; contexts is closing down, so list every check under checks",
    });
  }
  // The service keeps one check per context, so a context listed twice could never read back as written.
  const seen = new Set<string>();
  (checks?.checks ?? []).forEach((check, index) => {
    if (seen.has(check.context)) {
      problems.push({
        path: ["required_status_checks", "checks", index, "context"],
        message: `context "${check.context}" is listed twice; the service keeps one check per context`,
      });
    }
    seen.add(check.context);
  });
  const reviews = settings.required_pull_request_reviews;
  const counts = {
    restrictions: actors(settings.restrictions),
    dismissal_restrictions: actors(reviews?.dismissal_restrictions),
    bypass_pull_request_allowances: actors(reviews?.bypass_pull_request_allowances),
  };
  const total =
    counts.restrictions + counts.dismissal_restrictions + counts.bypass_pull_request_allowances;
  if (total > MAX_PROTECTION_ACTORS) {
    const parts = Object.entries(counts)
      .map(([name, count]) => `${name} ${count}`)
      .join(", ");
    problems.push({
      path: [],
      message: `${total} users, teams and apps in total (${parts}); the service allows at most ${MAX_PROTECTION_ACTORS} across these lists`,
    });
  }
  return problems;
}

/** Rules that apply when the repository is known to be owned by a user rather than an organization. */
export function personalRepositoryProblems(settings: BranchProtectionSettings): RuleProblem[] {
  const problems: RuleProblem[] = [];
  if (settings.restrictions !== undefined && settings.restrictions !== null) {
    problems.push({
      path: ["restrictions"],
      message:
        "push restrictions are only for organization-owned repositories and owner_type is user; use null",
    });
  }
  const dismissal = settings.required_pull_request_reviews?.dismissal_restrictions;
  for (const list of ["users", "teams"] as const) {
    if (dismissal?.[list] !== undefined) {
      problems.push({
        path: ["required_pull_request_reviews", "dismissal_restrictions", list],
        message: `dismissal restrictions by ${list} are only for organization-owned repositories and owner_type is user`,
      });
    }
  }
  return problems;
}

/** Every rule over the protections of one entry, with paths relative to `branch_protection`. */
function protectionRules(value: BranchProtections, entry: EntryFacts): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const [branch, settings] of Object.entries(value)) {
    if (settings === null) continue;
    const found = [
      ...branchProtectionProblems(settings),
      ...(entry.ownerType === "user" ? personalRepositoryProblems(settings) : []),
    ];
    for (const problem of found)
      problems.push({ path: [branch, ...problem.path], message: problem.message });
  }
  return problems;
}

export const branchProtectionSetting = defineSetting({
  key: "branch_protection",
  schema: branchProtections,
  rules: protectionRules,
  defines: (value) =>
    Object.keys(value).map((branch) => ({
      id: `branch ${branch}`,
      path: [branch],
      what: `the protection of branch ${branch}`,
    })),
  print: (value) =>
    Object.keys(value).map((branch) => ({
      kind: "branch_protection",
      name: branch,
      path: [branch],
    })),
});
