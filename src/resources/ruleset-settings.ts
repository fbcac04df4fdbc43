/**
 * How rulesets are written in the configuration: `rulesets: {<name>: …}` in repository settings and
 * under `organizations: [{name, rulesets}]`. Bypass actors and the actors inside rules are written by
 * name (team slug, app slug, role) and resolved to the service's ids at plan time. Rule types are a
 * mapping keyed by type, so layers (defaults, profiles, entries) merge rule by rule.
 */
import * as z from "zod";
import { closed, name, nameList, orNull } from "../config/fields.js";
import type { Path } from "../config/errors.js";
import type { EntryFacts, RuleProblem } from "../config/spec.js";
import { unknownNameHint } from "../config/suggest.js";

export type Level = "repository" | "organization";
export type Target = "branch" | "tag" | "push";
export type BypassMode = "always" | "pull_request" | "exempt";

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

/**
 * The repository roles a bypass list may name, with GitHub's ids for them (not published by GitHub;
 * maintain 2, write 4, admin 5: github/rest-api-description#7111, terraform-provider-github#1916),
 * and organization owners. Only maintain, write and admin may bypass (GitHub's docs, "Granting
 * bypass permissions for your ruleset").
 */
export const ROLE_IDS: Readonly<Record<string, number>> = { maintain: 2, write: 4, admin: 5 };
export const ORGANIZATION_ADMIN = "OrganizationAdmin";
const ROLES: [string, ...string[]] = [ORGANIZATION_ADMIN, ...Object.keys(ROLE_IDS)];

const bypassMode = z
  .enum(["always", "pull_request", "exempt"])
  .optional()
  .describe(
    "always (default); pull_request: only through pull requests (branch rulesets); exempt: the rules do not run for this actor.",
  );

const ACTOR_KINDS = ["role", "team", "app", "deploy_keys"] as const;

function oneActor(
  value: Record<string, unknown>,
  context: z.RefinementCtx,
  kinds: readonly string[],
) {
  const given = kinds.filter((kind) => value[kind] !== undefined);
  if (given.length !== 1) {
    context.addIssue({
      code: "custom",
      path: [],
      message: `give exactly one of ${kinds.join(", ")}${given.length > 1 ? ` (found ${given.join(" and ")})` : ""}`,
    });
  }
}

const role = z
  .enum(ROLES)
  .describe(
    `A repository role (admin, maintain, write) or ${ORGANIZATION_ADMIN} (organization owners).`,
  );

const bypassActor = closed({
  role: role.optional(),
  team: name("A team slug of the organization.").optional(),
  app: name("A GitHub App slug.").optional(),
  deploy_keys: z.literal(true).optional().describe("true: deploy keys may bypass."),
  bypass_mode: bypassMode,
})
  .superRefine((value, context) => oneActor(value, context, ACTOR_KINDS))
  .describe("Who may bypass the ruleset: one of role, team, app or deploy_keys.");

export type BypassActorSettings = z.infer<typeof bypassActor>;

/** An actor named inside a rule (review dismissal): a role, team or app. */
const ruleActor = closed({
  role: z
    .enum(Object.keys(ROLE_IDS) as [string, ...string[]])
    .optional()
    .describe("A repository role: admin, maintain or write."),
  team: name("A team slug of the organization.").optional(),
  app: name("A GitHub App slug (installed on the organization).").optional(),
}).superRefine((value, context) => oneActor(value, context, ["role", "team", "app"]));

export type RuleActorSettings = z.infer<typeof ruleActor>;

const present = (what: string) =>
  orNull(z.literal(true, { error: "expected true, or null to leave the rule out" })).describe(
    `true: ${what}; null leaves the rule out.`,
  );

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
const rules = z
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

const refPatterns = closed({
  include: z
    .array(z.string().min(1))
    .optional()
    .describe(
      "Patterns of refs the ruleset applies to: ~DEFAULT_BRANCH, ~ALL or refs/heads/… (fnmatch).",
    ),
  exclude: z.array(z.string().min(1)).optional().describe("Patterns of refs it does not apply to."),
});

const repositoryName = closed({
  include: z
    .array(z.string().min(1))
    .optional()
    .describe("Repository names or patterns; ~ALL for every repository."),
  exclude: z.array(z.string().min(1)).optional().describe("Repository names or patterns left out."),
  protected: z.boolean().optional().describe("Prevent renaming the targeted repositories."),
});

const propertySpec = closed({
  name: name("The custom property."),
  property_values: nameList("A value.").min(1).describe("Values that match."),
  source: z.enum(["custom", "system"]).optional().describe("custom (default) or system."),
});

const repositoryProperty = closed({
  include: z.array(propertySpec).optional().describe("Properties that must all match."),
  exclude: z.array(propertySpec).optional().describe("Properties that must not match."),
});

const repositoryConditions = closed({
  ref_name: refPatterns.optional().describe("The branches or tags the ruleset applies to."),
});

const organizationConditions = closed({
  ref_name: refPatterns.optional().describe("The branches or tags the ruleset applies to."),
  repository_name: repositoryName
    .optional()
    .describe("The repositories, by name (give this or repository_property)."),
  repository_property: repositoryProperty
    .optional()
    .describe("The repositories, by custom property (give this or repository_name)."),
});

/** A branch name as the protection endpoint takes it: non-empty, without wildcards. */
const branchName = z.string().regex(/^[^*?[]+$/, {
  error: "a branch name without wildcards (*, ? or [), as classic protection names it",
});

function rulesetShape(level: Level) {
  return {
    target: z
      .enum(["branch", "tag", "push"])
      .optional()
      .describe("What the ruleset governs: branch (default), tag or push."),
    enforcement: z
      .enum(["active", "evaluate", "disabled"])
      .optional()
      .describe("active (default), evaluate (report, do not enforce) or disabled."),
    conditions: (level === "repository" ? repositoryConditions : organizationConditions)
      .optional()
      .describe(
        level === "repository"
          ? "Which refs the ruleset applies to."
          : "Which repositories and refs the ruleset applies to.",
      ),
    bypass_actors: z
      .array(bypassActor)
      .optional()
      .describe("Who may bypass the ruleset (default: nobody)."),
    rules: rules.optional(),
  };
}

const repositoryRuleset = closed({
  ...rulesetShape("repository"),
  replaces_protection: z
    .array(branchName)
    .optional()
    .describe(
      "Branches whose classic protection this ruleset replaces: each is deleted, in the same change, once GET …/rules/branches/<branch> shows rules that cover it.",
    ),
}).describe("A ruleset, managed whole: what is not written takes its default.");

const organizationRuleset = closed(rulesetShape("organization")).describe(
  "An organization ruleset, managed whole: what is not written takes its default.",
);

export interface RulesetSettings {
  target?: Target;
  enforcement?: "active" | "evaluate" | "disabled";
  conditions?: {
    ref_name?: { include?: string[]; exclude?: string[] };
    repository_name?: { include?: string[]; exclude?: string[]; protected?: boolean };
    repository_property?: {
      include?: Array<{ name: string; property_values: string[]; source?: "custom" | "system" }>;
      exclude?: Array<{ name: string; property_values: string[]; source?: "custom" | "system" }>;
    };
  };
  bypass_actors?: BypassActorSettings[];
  rules?: RulesSettings;
  replaces_protection?: string[];
}

/** Rulesets keyed by name; null means "this ruleset must not exist". */
export type Rulesets = Record<string, RulesetSettings | null>;

const rulesetName = z.string().min(1).max(100);

/** The `rulesets` mapping of a repository or an organization. */
export function rulesetsSchema(level: Level) {
  const schema = z.record(
    rulesetName,
    orNull(level === "repository" ? repositoryRuleset : organizationRuleset).describe(
      "The ruleset of this name; null means no ruleset of this name may exist.",
    ),
  );
  // Organization entries are not layered: every rule can be checked on the value as written.
  if (level === "repository") return schema.describe("Rulesets by name.");
  return schema
    .superRefine((value, context) => {
      for (const problem of rulesetsProblems(value as Rulesets, "organization")) {
        context.addIssue({
          code: "custom",
          path: problem.path as PropertyKey[],
          message: problem.message,
        });
      }
    })
    .describe("Rulesets by name.");
}

const REF_PREFIX: Record<Target, string | undefined> = {
  branch: "refs/heads/",
  tag: "refs/tags/",
  push: undefined,
};

function refPatternProblems(settings: RulesetSettings, target: Target): RuleProblem[] {
  const refName = settings.conditions?.ref_name;
  if (refName === undefined) return [];
  const prefix = REF_PREFIX[target];
  if (prefix === undefined) {
    return [
      {
        path: ["conditions", "ref_name"],
        message: "push rulesets do not target refs; leave out conditions.ref_name",
      },
    ];
  }
  const problems: RuleProblem[] = [];
  for (const key of ["include", "exclude"] as const) {
    (refName[key] ?? []).forEach((ref, index) => {
      const special = ref === "~ALL" || (target === "branch" && ref === "~DEFAULT_BRANCH");
      // GitHub matches patterns against full ref names: "main" matches nothing
      // (eclipse-csi/otterdog validates the same way).
      if (!special && !ref.startsWith(prefix)) {
        problems.push({
          path: ["conditions", "ref_name", key, index],
          message: `a ${target} pattern is a full ref name: write ${prefix}${ref.replace(/^refs\/\w+\//, "")}${target === "branch" ? ", ~DEFAULT_BRANCH" : ""} or ~ALL`,
        });
      }
    });
  }
  return problems;
}

function actorKey(actor: { role?: string; team?: string; app?: string; deploy_keys?: true }) {
  if (actor.role !== undefined) return `role ${actor.role}`;
  if (actor.team !== undefined) return `team ${actor.team.toLowerCase()}`;
  if (actor.app !== undefined) return `app ${actor.app.toLowerCase()}`;
  return "deploy keys";
}

/** Rules of one ruleset that hold whatever else the repository has. */
function rulesetProblems(settings: RulesetSettings, level: Level): RuleProblem[] {
  const target = settings.target ?? "branch";
  const problems = refPatternProblems(settings, target);
  for (const [type, value] of Object.entries(settings.rules ?? {})) {
    if (value === null || value === undefined) continue;
    if (!ruleFitsTarget(type, target)) {
      problems.push({
        path: ["rules", type],
        message: `${type} is not available in ${target} rulesets`,
      });
    }
    if (level === "organization" && type === "merge_queue") {
      problems.push({
        path: ["rules", type],
        message: "merge_queue is not available in organization rulesets; set it per repository",
      });
    }
  }
  const seen = new Map<string, number>();
  (settings.bypass_actors ?? []).forEach((actor, index) => {
    const key = actorKey(actor);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push({
        path: ["bypass_actors", index],
        message: `${key} is listed twice`,
        sameAs: ["bypass_actors", earlier],
      });
    }
    seen.set(key, index);
    if (actor.bypass_mode === "pull_request" && (target !== "branch" || actor.deploy_keys)) {
      problems.push({
        path: ["bypass_actors", index, "bypass_mode"],
        message: "bypass_mode pull_request applies only to branch rulesets, and not to deploy keys",
      });
    }
    if (level === "organization" && actor.deploy_keys) {
      problems.push({
        path: ["bypass_actors", index, "deploy_keys"],
        message: "deploy keys belong to repositories; name them in repository rulesets",
      });
    }
  });
  const conditions = settings.conditions;
  if (level === "organization") {
    const ways = ["repository_name", "repository_property"].filter(
      (key) => (conditions as Record<string, unknown> | undefined)?.[key] !== undefined,
    );
    if (ways.length !== 1) {
      problems.push({
        path: ways.length === 0 ? [] : ["conditions"],
        message:
          "an organization ruleset targets repositories with exactly one of conditions.repository_name or conditions.repository_property",
      });
    }
  }
  if (settings.replaces_protection !== undefined && target !== "branch") {
    problems.push({
      path: ["replaces_protection"],
      message: "only branch rulesets replace classic branch protection",
    });
  }
  return problems;
}

function prefixed(problems: RuleProblem[], prefix: Path): RuleProblem[] {
  return problems.map((problem) => ({
    ...problem,
    path: [...prefix, ...problem.path],
    ...(problem.sameAs ? { sameAs: [...prefix, ...problem.sameAs] } : {}),
  }));
}

function rulesetsProblems(value: Rulesets, level: Level): RuleProblem[] {
  return Object.entries(value).flatMap(([rulesetName, settings]) =>
    settings === null ? [] : prefixed(rulesetProblems(settings, level), [rulesetName]),
  );
}

/**
 * Every rule over a repository's rulesets, also those that involve its other settings: a branch is
 * replaced by one ruleset at most, and a branch a ruleset replaces is not also protected classically
 * (the two would undo each other on every apply).
 */
export function repositoryRulesetRules(value: unknown, entry: EntryFacts): RuleProblem[] {
  const rulesets = value as Rulesets;
  const problems = rulesetsProblems(rulesets, "repository");
  const replacedBy = new Map<string, Path>();
  const protections = entry.settings?.branch_protection as Record<string, unknown> | undefined;
  for (const [rulesetName, settings] of Object.entries(rulesets)) {
    (settings?.replaces_protection ?? []).forEach((branch, index) => {
      const path = [rulesetName, "replaces_protection", index];
      const earlier = replacedBy.get(branch);
      if (earlier !== undefined) {
        problems.push({
          path,
          message: `branch ${branch} is replaced by another ruleset too; one ruleset replaces a branch's protection`,
          sameAs: earlier,
        });
      }
      replacedBy.set(branch, path);
      if (protections?.[branch] !== undefined) {
        problems.push({
          path,
          message: `branch ${branch} is replaced by this ruleset and also set under branch_protection; leave it out of branch_protection`,
        });
      }
    });
  }
  return problems;
}
