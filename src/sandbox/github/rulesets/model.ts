import { teamsOf } from "../team/records.js";
import * as z from "zod";
import { DOCS, HttpError } from "../http.js";
import {
  type ActorType,
  type BypassActor,
  type Conditions,
  type NamePatterns,
  type PropertySpec,
  type Rule,
  type Ruleset,
  type RulesetSource,
  type Target,
  organizationRulesetsOf,
  repositoryRulesetsOf,
} from "./records.js";
import type { Organization, Repository, GithubWorld } from "../world/records.js";

/**
 * Repository and organization rulesets: the POST/PUT bodies of `/repos/{owner}/{repo}/rulesets` and
 * `/orgs/{org}/rulesets` checked as GitHub checks them (its request schemas in @octokit/openapi, and
 * the rules it refuses with a 422), and the record stored (its type is in records.ts). Where they
 * apply is match.ts, how they read shapes.ts.
 */

const TARGETS = ["branch", "tag", "push", "repository"] as const satisfies readonly Target[];
const ACTOR_TYPES = [
  "Integration",
  "OrganizationAdmin",
  "RepositoryRole",
  "Team",
  "DeployKey",
  "User",
] as const satisfies readonly ActorType[];

/**
 * The built-in repository roles a bypass list can name, by id: GitHub does not publish these ids;
 * the ones it uses are maintain 2, write 4, admin 5 (github/rest-api-description#7111,
 * integrations/terraform-provider-github#1916). Only maintain, write and admin may bypass (GitHub's
 * docs, "Granting bypass permissions for your ruleset").
 */
export const REPOSITORY_ROLES = new Map<number, string>([
  [2, "maintain"],
  [4, "write"],
  [5, "admin"],
]);

const strings = z.array(z.string());
const namePatterns = z.object({ include: strings.optional(), exclude: strings.optional() });
const propertySpec = z.object({
  name: z.string(),
  property_values: strings,
  source: z.enum(["custom", "system"]).optional(),
});
const conditionsSchema = z.object({
  ref_name: namePatterns.optional(),
  repository_name: namePatterns.extend({ protected: z.boolean().optional() }).optional(),
  repository_id: z.object({ repository_ids: z.array(z.number().int()).optional() }).optional(),
  repository_property: z
    .object({
      include: z.array(propertySpec).optional(),
      exclude: z.array(propertySpec).optional(),
    })
    .optional(),
});
const actorSchema = z.object({
  actor_id: z.number().int().nullable().optional(),
  actor_type: z.enum(ACTOR_TYPES),
  bypass_mode: z.enum(["always", "pull_request", "exempt"]).optional(),
});

/** Every member of a body is optional for a PUT; a POST also needs name and enforcement. */
const bodySchema = z.object({
  name: z.string().optional(),
  target: z.enum(TARGETS).optional(),
  enforcement: z.enum(["disabled", "active", "evaluate"]).optional(),
  bypass_actors: z.array(actorSchema).optional(),
  conditions: conditionsSchema.optional(),
  rules: z.array(z.unknown()).optional(),
});

const patternParameters = z.object({
  name: z.string().optional(),
  negate: z.boolean().optional(),
  operator: z.enum(["starts_with", "ends_with", "contains", "regex"]),
  pattern: z.string(),
});
const actorParameter = z.object({
  id: z.number().int(),
  type: z.enum(["User", "Team", "IntegrationInstallation", "RepositoryRole"]),
});
const range = (min: number, max: number) => z.number().int().min(min).max(max);

/**
 * The parameters of each rule type GitHub's `repository-rule` schema lists, as its schema requires
 * them; `null`: a rule without parameters. Unknown members are dropped, as elsewhere.
 */
const RULE_PARAMETERS: Record<string, z.ZodType | null> = {
  creation: null,
  update: z.object({ update_allows_fetch_and_merge: z.boolean() }),
  deletion: null,
  required_linear_history: null,
  merge_queue: z.object({
    check_response_timeout_minutes: range(1, 360),
    grouping_strategy: z.enum(["ALLGREEN", "HEADGREEN"]),
    max_entries_to_build: range(0, 100),
    max_entries_to_merge: range(0, 100),
    merge_method: z.enum(["MERGE", "SQUASH", "REBASE"]),
    min_entries_to_merge: range(0, 100),
    min_entries_to_merge_wait_minutes: range(0, 360),
  }),
  required_deployments: z.object({ required_deployment_environments: strings }),
  required_signatures: null,
  pull_request: z.object({
    allowed_merge_methods: z.array(z.enum(["merge", "squash", "rebase"])).optional(),
    // Not in the published schema, but GitHub answers it (see checkRule).
    automatic_copilot_code_review_enabled: z.boolean().optional(),
    dismiss_stale_reviews_on_push: z.boolean(),
    dismissal_restriction: z
      .object({ enabled: z.boolean(), allowed_actors: z.array(actorParameter).optional() })
      .optional(),
    require_code_owner_review: z.boolean(),
    require_last_push_approval: z.boolean(),
    required_approving_review_count: range(0, 10),
    required_review_thread_resolution: z.boolean(),
    required_reviewers: z
      .array(
        z.object({
          file_patterns: strings,
          minimum_approvals: z.number().int(),
          reviewer: z.object({ id: z.number().int(), type: z.literal("Team") }),
        }),
      )
      .optional(),
  }),
  required_status_checks: z.object({
    do_not_enforce_on_create: z.boolean().optional(),
    required_status_checks: z.array(
      z.object({ context: z.string(), integration_id: z.number().int().optional() }),
    ),
    strict_required_status_checks_policy: z.boolean(),
  }),
  non_fast_forward: null,
  commit_message_pattern: patternParameters,
  commit_author_email_pattern: patternParameters,
  committer_email_pattern: patternParameters,
  branch_name_pattern: patternParameters,
  tag_name_pattern: patternParameters,
  workflows: z.object({
    do_not_enforce_on_create: z.boolean().optional(),
    workflows: z.array(
      z.object({
        path: z.string(),
        repository_id: z.number().int(),
        ref: z.string().optional(),
        sha: z.string().optional(),
      }),
    ),
  }),
  code_scanning: z.object({
    code_scanning_tools: z.array(
      z.object({
        alerts_threshold: z.enum(["none", "errors", "errors_and_warnings", "all"]),
        security_alerts_threshold: z.enum([
          "none",
          "critical",
          "high_or_higher",
          "medium_or_higher",
          "all",
        ]),
        tool: z.string(),
      }),
    ),
  }),
  copilot_code_review: z.object({
    review_draft_pull_requests: z.boolean().optional(),
    review_on_push: z.boolean().optional(),
  }),
  license_compliance_scanning: null,
  file_path_restriction: z.object({ restricted_file_paths: strings }),
  max_file_path_length: z.object({ max_file_path_length: range(1, 32767) }),
  file_extension_restriction: z.object({ restricted_file_extensions: strings }),
  max_file_size: z.object({ max_file_size: range(1, 100) }),
};

/** Rules of push rulesets, which restrict the files a push may carry. */
const PUSH_RULES = new Set([
  "file_path_restriction",
  "max_file_path_length",
  "file_extension_restriction",
  "max_file_size",
]);
/**
 * Rules about pull requests, merging, checks and deployments apply to branches only: GitHub refuses
 * a `pull_request` rule in a tag ruleset with `Invalid rule 'pull_request': ` (observed:
 * eclipse-csi/otterdog#483), and its docs list these rules for branch rulesets only.
 */
const BRANCH_ONLY_RULES = new Set([
  "pull_request",
  "copilot_code_review",
  "required_status_checks",
  "merge_queue",
  "required_deployments",
  "required_linear_history",
  "workflows",
  "code_scanning",
  "branch_name_pattern",
]);
/**
 * `merge_queue` and `license_compliance_scanning` are not among the rules of organization rulesets
 * (`org-rules` in the schema).
 */
const REPOSITORY_ONLY_RULES = new Set(["merge_queue", "license_compliance_scanning"]);

function ruleFitsTarget(type: string, target: Target): boolean {
  if (target === "repository") return false;
  if (target === "push") return PUSH_RULES.has(type);
  if (PUSH_RULES.has(type)) return false;
  if (target === "tag") return !BRANCH_ONLY_RULES.has(type);
  return type !== "tag_name_pattern";
}

/** 422 as GitHub answers a ruleset it refuses: Validation Failed, string errors, and `status`. */
export function rulesetRefused(errors: string[]): HttpError {
  return new HttpError({
    status: 422,
    body: { message: "Validation Failed", errors, documentation_url: DOCS, status: "422" },
  });
}

/** `Invalid property /rules/3: data matches no possible input`: GitHub's words for a schema miss. */
function propertyError(issue: z.core.$ZodIssue, prefix: (string | number)[] = []): string {
  const path = [...prefix, ...issue.path].map(String).join("/");
  const received = /received (\w+)$/.exec(issue.message)?.[1];
  const detail = received === "null" ? "data cannot be null" : issue.message;
  return `Invalid property /${path}: ${detail}`;
}

type Owner = { org: Organization | null; repo: Repository | null };

function ownerOf(source: RulesetSource): Owner {
  return source.type === "Repository"
    ? { org: source.repo.org, repo: source.repo }
    : { org: source.org, repo: null };
}

function findRepositoryById(world: GithubWorld, id: number): Repository | undefined {
  for (const repo of world.repositories.values()) if (repo.id === id) return repo;
  return undefined;
}

function checkActors(
  world: GithubWorld,
  source: RulesetSource,
  target: Target,
  actors: BypassActor[],
  errors: string[],
): void {
  const { org } = ownerOf(source);
  const seen = new Set<string>();
  for (const actor of actors) {
    const key = `${actor.actor_type}:${actor.actor_id}`;
    if (seen.has(key)) errors.push(`Invalid bypass actors: ${key} is listed twice`);
    seen.add(key);
    if (
      actor.bypass_mode === "pull_request" &&
      (target !== "branch" || actor.actor_type === "DeployKey")
    ) {
      errors.push(
        `Invalid bypass actors: bypass_mode pull_request applies to branch rulesets and not to deploy keys`,
      );
    }
    const id = actor.actor_id;
    switch (actor.actor_type) {
      case "OrganizationAdmin":
        if (org === null)
          errors.push(
            "Invalid bypass actors: OrganizationAdmin is not applicable for personal repositories",
          );
        break;
      case "DeployKey":
        break;
      case "RepositoryRole":
        if (id === null || !REPOSITORY_ROLES.has(id))
          errors.push(`Invalid bypass actors: repository role ${id} does not exist`);
        break;
      case "Team":
        if (org === null || ![...teamsOf(org).values()].some((team) => team.id === id)) {
          errors.push(`Invalid bypass actors: team ${id} does not exist in this organization`);
        }
        break;
      case "Integration":
        if (id === null || !world.appsById.has(id))
          errors.push(`Invalid bypass actors: app ${id} does not exist`);
        break;
      case "User":
        if (id === null || world.accountsById.get(id)?.type !== "User")
          errors.push(`Invalid bypass actors: user ${id} does not exist`);
        break;
    }
  }
}

function actorExists(
  world: GithubWorld,
  owner: Owner,
  actor: z.infer<typeof actorParameter>,
): boolean {
  switch (actor.type) {
    case "User":
      return world.accountsById.get(actor.id)?.type === "User";
    case "Team":
      return (
        owner.org !== null && [...teamsOf(owner.org).values()].some((team) => team.id === actor.id)
      );
    case "RepositoryRole":
      return REPOSITORY_ROLES.has(actor.id);
    case "IntegrationInstallation": {
      const installation = world.installations.get(actor.id);
      return installation !== undefined && installation.account.id === owner.org?.account.id;
    }
  }
}

/** Rule-specific checks GitHub makes beyond its schema, and the defaults it fills in. */
function checkRule(
  world: GithubWorld,
  owner: Owner,
  type: string,
  parameters: Record<string, unknown>,
  errors: string[],
): Record<string, unknown> {
  const refuse = (detail: string) => errors.push(`Invalid rule '${type}': ${detail}`);
  switch (type) {
    case "pull_request": {
      const methods = parameters.allowed_merge_methods as string[] | undefined;
      if (methods !== undefined && methods.length === 0) {
        refuse("allowed_merge_methods: at least one option must be enabled");
      }
      const dismissal = parameters.dismissal_restriction as
        { enabled: boolean; allowed_actors?: Array<z.infer<typeof actorParameter>> } | undefined;
      for (const actor of dismissal?.allowed_actors ?? []) {
        if (!actorExists(world, owner, actor))
          refuse(`dismissal_restriction: ${actor.type} ${actor.id} does not exist`);
      }
      const reviewers = (parameters.required_reviewers ?? []) as Array<{
        file_patterns: string[];
        minimum_approvals: number;
        reviewer: { id: number };
      }>;
      for (const reviewer of reviewers) {
        if (!actorExists(world, owner, { id: reviewer.reviewer.id, type: "Team" }))
          refuse(`required_reviewers: team ${reviewer.reviewer.id} does not exist`);
        if (reviewer.file_patterns.length === 0)
          refuse("required_reviewers: file_patterns may not be empty");
        if (reviewer.minimum_approvals < 0)
          refuse("required_reviewers: minimum_approvals may not be negative");
      }
      // GitHub fills in every merge method when none is sent (integrations/terraform-provider-github,
      // github/util_rules.go: "the SDK not setting the default value for the allowed_merge_methods").
      const order = ["merge", "squash", "rebase"];
      // GitHub answers `automatic_copilot_code_review_enabled`, false unless set, though its
      // schema lacks it (integrations/terraform-provider-github#2694, google/go-github#3505).
      return {
        automatic_copilot_code_review_enabled: false,
        ...parameters,
        allowed_merge_methods: order.filter((method) => (methods ?? order).includes(method)),
      };
    }
    case "required_status_checks": {
      const checks = parameters.required_status_checks as Array<{ integration_id?: number }>;
      if (
        checks.some(
          (check) =>
            check.integration_id !== undefined && !world.appsById.has(check.integration_id),
        )
      ) {
        // Observed wording: eclipse-csi/otterdog#473.
        refuse("Invalid parameter required_status_checks: Invalid integration ids");
      }
      return { do_not_enforce_on_create: false, ...parameters };
    }
    case "workflows": {
      for (const workflow of parameters.workflows as Array<{ repository_id: number }>) {
        if (findRepositoryById(world, workflow.repository_id) === undefined) {
          refuse(`repository ${workflow.repository_id} does not exist`);
        }
      }
      return { do_not_enforce_on_create: false, ...parameters };
    }
    case "commit_message_pattern":
    case "commit_author_email_pattern":
    case "committer_email_pattern":
    case "branch_name_pattern":
    case "tag_name_pattern": {
      if (parameters.operator === "regex") {
        try {
          new RegExp(String(parameters.pattern));
        } catch {
          refuse(`pattern is not a valid regular expression`);
        }
      }
      return { negate: false, ...parameters };
    }
    default:
      return parameters;
  }
}

function parseRules(
  world: GithubWorld,
  owner: Owner,
  target: Target,
  raw: unknown[],
  errors: string[],
): Rule[] {
  const rules: Rule[] = [];
  const seen = new Set<string>();
  raw.forEach((item, index) => {
    const noMatch = `Invalid property /rules/${index}: data matches no possible input`;
    const type = (item as { type?: unknown } | null)?.type;
    if (typeof type !== "string" || !(type in RULE_PARAMETERS)) {
      errors.push(noMatch);
      return;
    }
    const schema = RULE_PARAMETERS[type] ?? null;
    let parameters: Record<string, unknown> | undefined;
    const given = (item as { parameters?: unknown }).parameters;
    if (schema === null) parameters = undefined;
    else if (given === undefined && type === "update") {
      parameters = { update_allows_fetch_and_merge: false };
    } else {
      const parsed = schema.safeParse(given ?? {});
      if (!parsed.success) {
        errors.push(noMatch);
        return;
      }
      parameters = parsed.data as Record<string, unknown>;
    }
    if (seen.has(type)) {
      errors.push(`Invalid rules: '${type}' is listed more than once`);
      return;
    }
    seen.add(type);
    if (!ruleFitsTarget(type, target)) {
      errors.push(`Invalid rule '${type}': not available for ${target} rulesets`);
      return;
    }
    if (owner.repo === null && REPOSITORY_ONLY_RULES.has(type)) {
      errors.push(`Invalid rule '${type}': not available for organization rulesets`);
      return;
    }
    rules.push(
      parameters === undefined
        ? { type }
        : { type, parameters: checkRule(world, owner, type, parameters, errors) },
    );
  });
  return rules;
}

function patterns(value: z.infer<typeof namePatterns> | undefined): NamePatterns {
  return { include: value?.include ?? [], exclude: value?.exclude ?? [] };
}

function parseConditions(
  raw: z.infer<typeof conditionsSchema>,
  owner: Owner,
  errors: string[],
): Conditions {
  const conditions: Conditions = {};
  if (raw.ref_name !== undefined) conditions.ref_name = patterns(raw.ref_name);
  if (owner.repo !== null) return conditions;
  // An organization ruleset targets repositories in exactly one way (`org-ruleset-conditions` is a oneOf).
  const ways = (["repository_name", "repository_id", "repository_property"] as const).filter(
    (key) => raw[key] !== undefined,
  );
  if (ways.length !== 1) {
    errors.push("Invalid property /conditions: data matches no possible input");
    return conditions;
  }
  if (raw.repository_name) {
    conditions.repository_name = {
      ...patterns(raw.repository_name),
      protected: raw.repository_name.protected ?? false,
    };
  }
  if (raw.repository_id) {
    conditions.repository_id = { repository_ids: raw.repository_id.repository_ids ?? [] };
  }
  if (raw.repository_property) {
    const specs = (list: Array<z.infer<typeof propertySpec>> | undefined): PropertySpec[] =>
      (list ?? []).map((spec) => ({ ...spec, source: spec.source ?? "custom" }));
    conditions.repository_property = {
      include: specs(raw.repository_property.include),
      exclude: specs(raw.repository_property.exclude),
    };
  }
  return conditions;
}

export type RulesetResult =
  { ruleset: Omit<Ruleset, "id" | "created_at" | "updated_at"> } | { errors: string[] };

/**
 * Checks a POST body (`current` undefined) or a PUT body laid over the current ruleset (members not
 * sent keep their values), and builds the record it would store; nothing is changed here.
 */
export function rulesetFromBody(
  world: GithubWorld,
  source: RulesetSource,
  raw: Record<string, unknown>,
  current?: Ruleset,
): RulesetResult {
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) return { errors: parsed.error.issues.map((issue) => propertyError(issue)) };
  const body = parsed.data;
  const owner = ownerOf(source);
  const errors: string[] = [];
  const name = body.name ?? current?.name;
  const enforcement = body.enforcement ?? current?.enforcement;
  if (name === undefined) errors.push("Invalid property /name: is required");
  if (enforcement === undefined) errors.push("Invalid property /enforcement: is required");
  const target = body.target ?? current?.target ?? "branch";
  if (owner.repo !== null && target === "repository") {
    errors.push("Invalid property /target: repository is only for organization rulesets");
  }
  if (name !== undefined && name.trim() === "")
    errors.push("Invalid property /name: may not be empty");
  const siblings =
    owner.repo !== null
      ? repositoryRulesetsOf(owner.repo)
      : owner.org !== null
        ? organizationRulesetsOf(owner.org)
        : new Map();
  for (const other of siblings.values()) {
    if (other.id !== current?.id && other.name === name) errors.push("Name must be unique");
  }
  const actors: BypassActor[] =
    body.bypass_actors?.map((actor) => ({
      // OrganizationAdmin and DeployKey have no id: GitHub ignores one that is sent and reads back
      // null (github/rest-api-description#4406).
      actor_id:
        actor.actor_type === "OrganizationAdmin" || actor.actor_type === "DeployKey"
          ? null
          : (actor.actor_id ?? null),
      actor_type: actor.actor_type,
      bypass_mode: actor.bypass_mode ?? "always",
    })) ??
    current?.bypass_actors ??
    [];
  checkActors(world, source, target, actors, errors);
  let conditions = current?.conditions ?? null;
  if (body.conditions !== undefined) conditions = parseConditions(body.conditions, owner, errors);
  if (owner.repo === null && conditions === null) {
    errors.push("Invalid property /conditions: organization rulesets must target repositories");
  }
  const rules =
    body.rules !== undefined
      ? parseRules(world, owner, target, body.rules, errors)
      : (current?.rules ?? []).filter((rule) => {
          const fits = ruleFitsTarget(rule.type, target);
          if (!fits)
            errors.push(`Invalid rule '${rule.type}': not available for ${target} rulesets`);
          return fits;
        });
  if (errors.length > 0 || name === undefined || enforcement === undefined) return { errors };
  return {
    ruleset: { name, target, enforcement, source, bypass_actors: actors, conditions, rules },
  };
}

/** A ruleset's source as GitHub names it: `owner/repo` or the organization's login. */
export function sourceName(source: RulesetSource): string {
  return source.type === "Repository"
    ? `${source.repo.owner.login}/${source.repo.name}`
    : source.org.account.login;
}
