/**
 * The rule types of a ruleset as the configuration writes them: a mapping keyed by type (so layers
 * merge rule by rule), `true` for a rule without parameters, `null` to leave a rule out, and which
 * rule types each target takes.
 */
import * as z from "zod";
import { closed, name, nameList, orNull } from "../../config/fields.js";
import { unknownNameHint } from "../../config/suggest.js";
import { ruleActor } from "./actors.js";

export type Target = "branch" | "tag" | "push";

/** The rule types forgeplan manages, in the order requests list them. */
export const RULE_TYPES = [
  "creation",
  "update",
  "deletion",
  "required_linear_history",
  "required_signatures",
  "non_fast_forward",
  "pull_request",
  "required_status_checks",
  "merge_queue",
  "required_deployments",
  "commit_message_pattern",
  "commit_author_email_pattern",
  "committer_email_pattern",
  "branch_name_pattern",
  "tag_name_pattern",
  "code_scanning",
  "workflows",
  "file_path_restriction",
  "max_file_size",
  "file_extension_restriction",
  "max_file_path_length",
] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/**
 * Rule types GitHub has that forgeplan does not manage. Written in the configuration they are
 * refused by name; found on a live ruleset they stop every write to it, since a PUT of the rules
 * forgeplan knows would remove them.
 */
const UNSUPPORTED_RULE_TYPES = ["copilot_code_review", "license_compliance_scanning"];

export const PATTERN_RULES = [
  "commit_message_pattern",
  "commit_author_email_pattern",
  "committer_email_pattern",
  "branch_name_pattern",
  "tag_name_pattern",
] as const;

/** Rules of push rulesets: what files a push may carry. */
const PUSH_RULES = new Set<string>([
  "file_path_restriction",
  "max_file_size",
  "file_extension_restriction",
  "max_file_path_length",
]);

/**
 * Rules about pull requests, merging, checks and deployments govern branches only: GitHub refuses a
 * `pull_request` rule in a tag ruleset (eclipse-csi/otterdog#483), and its docs ("Available rules
 * for rulesets") list these for branch rulesets.
 */
const BRANCH_ONLY_RULES = new Set<string>([
  "pull_request",
  "required_status_checks",
  "merge_queue",
  "required_deployments",
  "required_linear_history",
  "workflows",
  "code_scanning",
  "branch_name_pattern",
]);

export function ruleFitsTarget(type: string, target: Target): boolean {
  if (target === "push") return PUSH_RULES.has(type);
  if (PUSH_RULES.has(type)) return false;
  if (target === "tag") return !BRANCH_ONLY_RULES.has(type);
  return type !== "tag_name_pattern";
}

const present = (what: string) =>
  orNull(z.literal(true)).describe(`true: ${what}; null leaves the rule out.`);

const pattern = (what: string) =>
  orNull(
    closed({
      operator: z
        .enum(["starts_with", "ends_with", "contains", "regex"])
        .describe("How the pattern matches."),
      pattern: z.string().describe("The pattern."),
      negate: z.boolean().optional().describe("true: the rule fails when the pattern matches."),
      name: z.string().optional().describe("How the rule is shown on the service."),
    }),
  ).describe(`${what} must match a pattern; null leaves the rule out.`);

const pullRequest = closed({
  required_approving_review_count: z
    .int()
    .min(0)
    .max(10)
    .optional()
    .describe("Approving reviews required before merging: 0 (default) to 10."),
  dismiss_stale_reviews_on_push: z
    .boolean()
    .optional()
    .describe("New reviewable commits dismiss earlier approvals."),
  require_code_owner_review: z
    .boolean()
    .optional()
    .describe("Require an approving review from a code owner of changed files."),
  require_last_push_approval: z
    .boolean()
    .optional()
    .describe("The most recent push must be approved by someone other than its pusher."),
  required_review_thread_resolution: z
    .boolean()
    .optional()
    .describe("All review conversations must be resolved before merging."),
  allowed_merge_methods: z
    .array(z.enum(["merge", "squash", "rebase"]))
    .min(1, { error: "at least one merge method must be allowed" })
    .optional()
    .describe("The merge methods allowed (default: merge, squash and rebase)."),
  dismissal_restriction: closed({
    enabled: z.boolean().optional().describe("Restrict who may dismiss reviews (default true)."),
    allowed_actors: z
      .array(ruleActor)
      .optional()
      .describe("Who may dismiss reviews: roles, teams and apps."),
  })
    .optional()
    .describe("Who may dismiss pull request reviews."),
  required_reviewers: z
    .array(
      closed({
        team: name("The team that must review."),
        file_patterns: nameList("A file pattern (fnmatch).")
          .min(1)
          .describe("Changes to files matching these patterns need the team's approval."),
        minimum_approvals: z
          .int()
          .min(0)
          .describe("Approvals needed from the team (0: the team is asked, approval optional)."),
      }),
    )
    .optional()
    .describe("Teams that must approve changes to matching files."),
});

const statusChecks = closed({
  strict_required_status_checks_policy: z
    .boolean()
    .optional()
    .describe("Pull requests must be tested with the latest code of the branch."),
  do_not_enforce_on_create: z
    .boolean()
    .optional()
    .describe("Allow creating refs that the checks would otherwise block."),
  required_status_checks: z
    .array(
      closed({
        context: name("The status check context, e.g. ci/build."),
        integration_id: z
          .int()
          .positive()
          .optional()
          .describe("The app that must provide the check; leave out to accept any source."),
      }),
    )
    .optional()
    .describe("The checks that must pass."),
});

/** GitHub's defaults when it creates a merge queue (docs, "Managing a merge queue"). */
export const MERGE_QUEUE_DEFAULTS = {
  check_response_timeout_minutes: 60,
  grouping_strategy: "ALLGREEN",
  max_entries_to_build: 5,
  max_entries_to_merge: 5,
  merge_method: "MERGE",
  min_entries_to_merge: 1,
  min_entries_to_merge_wait_minutes: 5,
} as const;

const mergeQueue = closed({
  check_response_timeout_minutes: z
    .int()
    .min(1)
    .max(360)
    .optional()
    .describe("Minutes a required check may take (default 60)."),
  grouping_strategy: z
    .enum(["ALLGREEN", "HEADGREEN"])
    .optional()
    .describe("ALLGREEN (default): every merge group commit must pass; HEADGREEN: only the head."),
  max_entries_to_build: z
    .int()
    .min(0)
    .max(100)
    .optional()
    .describe("Queued pull requests built at once (default 5)."),
  max_entries_to_merge: z
    .int()
    .min(0)
    .max(100)
    .optional()
    .describe("Pull requests merged together at most (default 5)."),
  merge_method: z
    .enum(["MERGE", "SQUASH", "REBASE"])
    .optional()
    .describe("How queued pull requests are merged (default MERGE)."),
  min_entries_to_merge: z
    .int()
    .min(0)
    .max(100)
    .optional()
    .describe("Pull requests merged together at least (default 1)."),
  min_entries_to_merge_wait_minutes: z
    .int()
    .min(0)
    .max(360)
    .optional()
    .describe("Minutes to wait for the minimum group (default 5)."),
});

const rulesShape = {
  creation: present("only bypass actors may create matching refs").optional(),
  update: orNull(
    z.union([
      z.literal(true),
      closed({
        update_allows_fetch_and_merge: z
          .boolean()
          .optional()
          .describe("The branch may still pull changes from its upstream repository."),
      }),
    ]),
  )
    .optional()
    .describe(
      "true or parameters: only bypass actors may update matching refs; null leaves it out.",
    ),
  deletion: present("only bypass actors may delete matching refs").optional(),
  required_linear_history: present("merge commits may not be pushed").optional(),
  required_signatures: present("commits must have verified signatures").optional(),
  non_fast_forward: present("force pushes are blocked").optional(),
  pull_request: orNull(pullRequest)
    .optional()
    .describe("Changes must go through a pull request; null leaves the rule out."),
  required_status_checks: orNull(statusChecks)
    .optional()
    .describe("Status checks must pass before a ref is updated; null leaves the rule out."),
  merge_queue: orNull(mergeQueue)
    .optional()
    .describe("Merges go through a merge queue (repository rulesets only); null leaves it out."),
  required_deployments: orNull(
    closed({
      required_deployment_environments: nameList("An environment name.").describe(
        "Environments that must be deployed to successfully first.",
      ),
    }),
  )
    .optional()
    .describe("Deployments must succeed before merging; null leaves the rule out."),
  commit_message_pattern: pattern("Commit messages").optional(),
  commit_author_email_pattern: pattern("Commit author emails").optional(),
  committer_email_pattern: pattern("Committer emails").optional(),
  branch_name_pattern: pattern("Branch names").optional(),
  tag_name_pattern: pattern("Tag names").optional(),
  code_scanning: orNull(
    closed({
      code_scanning_tools: z
        .array(
          closed({
            tool: name("The code scanning tool, e.g. CodeQL."),
            alerts_threshold: z
              .enum(["none", "errors", "errors_and_warnings", "all"])
              .describe("Alert severity that blocks a ref update."),
            security_alerts_threshold: z
              .enum(["none", "critical", "high_or_higher", "medium_or_higher", "all"])
              .describe("Security alert severity that blocks a ref update."),
          }),
        )
        .min(1)
        .describe("Tools that must provide results."),
    }),
  )
    .optional()
    .describe("Code scanning results must be present and pass; null leaves the rule out."),
  workflows: orNull(
    closed({
      do_not_enforce_on_create: z
        .boolean()
        .optional()
        .describe("Allow creating refs that the workflows would otherwise block."),
      workflows: z
        .array(
          closed({
            path: name("The workflow file, e.g. .github/workflows/ci.yml."),
            repository_id: z.int().positive().describe("The id of the repository holding it."),
            ref: z.string().optional().describe("The ref of the workflow file."),
            sha: z.string().optional().describe("The commit of the workflow file."),
          }),
        )
        .min(1)
        .describe("Workflows that must pass."),
    }),
  )
    .optional()
    .describe("Workflows must pass before merging; null leaves the rule out."),
  file_path_restriction: orNull(
    closed({
      restricted_file_paths: nameList("A file path.")
        .min(1)
        .describe("Paths a push may not change."),
    }),
  )
    .optional()
    .describe("Push rulesets: paths that may not be pushed; null leaves the rule out."),
  max_file_size: orNull(
    closed({
      max_file_size: z.int().min(1).max(100).describe("The largest file a push may carry, in MB."),
    }),
  )
    .optional()
    .describe("Push rulesets: a file size limit; null leaves the rule out."),
  file_extension_restriction: orNull(
    closed({
      restricted_file_extensions: nameList("A file extension, e.g. *.exe.")
        .min(1)
        .describe("Extensions a push may not carry."),
    }),
  )
    .optional()
    .describe("Push rulesets: extensions that may not be pushed; null leaves the rule out."),
  max_file_path_length: orNull(
    closed({
      max_file_path_length: z
        .int()
        .min(1)
        .max(32767)
        .describe("The longest file path a push may carry."),
    }),
  )
    .optional()
    .describe("Push rulesets: a path length limit; null leaves the rule out."),
} satisfies Record<RuleType, z.ZodType>;

/** Unknown rule types are named: GitHub's that forgeplan does not manage, or a likely typo. */
export const rules = z
  .strictObject(rulesShape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? issue.keys
            .map((key) =>
              UNSUPPORTED_RULE_TYPES.includes(key)
                ? `rule type "${key}" is not supported by forgeplan; manage it on the service and leave this ruleset to forgeplan without it`
                : `unknown rule type ${JSON.stringify(key)}; ${unknownNameHint(key, RULE_TYPES)}`,
            )
            .join("\n")
        : undefined,
  })
  .describe("The rules, keyed by type; a type not written is not in the ruleset.");

export type RulesSettings = z.infer<typeof rules>;
