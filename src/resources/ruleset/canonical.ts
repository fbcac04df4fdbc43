/**
 * A ruleset in one normalized form, whatever it came from: a Repository ruleset the service answered,
 * a request body forgeplan sent, or the desired state once its names are resolved to ids. The form
 * is GitHub's (ids, rules keyed by type) with every default GitHub fills in made explicit, so a live
 * ruleset equal to the desired one compares equal:
 *
 * - a bypass actor's mode is `always` unless said; OrganizationAdmin and DeployKey have no id
 *   (GitHub ignores the id sent and reads back null, github/rest-api-description#4406);
 * - absent conditions, include and exclude lists are empty; `protected` is false; a property's
 *   source is `custom`;
 * - `pull_request` allows every merge method unless it lists some (GitHub fills them in:
 *   terraform-provider-github, github/util_rules.go), its booleans are false and its count 0; an
 *   absent dismissal restriction is a disabled one, and a disabled one lists nobody;
 * - `update` does not allow fetch-and-merge; checks, workflows and patterns have their switches off;
 *   a merge queue has GitHub's defaults;
 * - include/exclude patterns, bypass actors, status checks, environments, paths, extensions, tools,
 *   workflows and merge methods are sets: their order never matters.
 */
import * as z from "zod";
import { firstProblem } from "../../core/zod-problem.js";
import { MERGE_QUEUE_DEFAULTS, PATTERN_RULES, RULE_TYPES, type RuleType } from "./rules.js";

type Json = Record<string, unknown>;

/** The bypass actor types of GitHub's `repository-ruleset-bypass-actor` schema. */
const ACTOR_TYPES = [
  "Integration",
  "OrganizationAdmin",
  "RepositoryRole",
  "Team",
  "DeployKey",
  "User",
] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export interface GhActor {
  actor_id: number | null;
  actor_type: ActorType;
  bypass_mode: "always" | "pull_request" | "exempt";
}

export interface GhConditions {
  ref_name: { include: string[]; exclude: string[] };
  repository_name?: { include: string[]; exclude: string[]; protected: boolean };
  repository_property?: { include: PropertySpec[]; exclude: PropertySpec[] };
  repository_id?: { repository_ids: number[] };
}

interface PropertySpec {
  name: string;
  property_values: string[];
  source: "custom" | "system";
}

/** A ruleset in the normalized GitHub form: rules keyed by type, null for a rule without parameters. */
export interface GhRuleset {
  name: string;
  target: string;
  enforcement: string;
  bypass_actors: GhActor[];
  conditions: GhConditions;
  rules: Partial<Record<RuleType, Json | null>>;
}

const int = z.number().int();
const flag = z.boolean().optional();
const strings = z.array(z.string());
const pattern = z.looseObject({
  operator: z.string(),
  pattern: z.string(),
  negate: flag,
  name: z.string().nullish(),
});

/** The parameters of each managed rule type as the planner reads them (unread members may be anything). */
const PARAMETERS: Record<RuleType, z.ZodType | null> = {
  creation: null,
  update: z.looseObject({ update_allows_fetch_and_merge: flag }),
  deletion: null,
  required_linear_history: null,
  required_signatures: null,
  non_fast_forward: null,
  pull_request: z.looseObject({
    required_approving_review_count: int.optional(),
    dismiss_stale_reviews_on_push: flag,
    require_code_owner_review: flag,
    require_last_push_approval: flag,
    required_review_thread_resolution: flag,
    allowed_merge_methods: strings.optional(),
    dismissal_restriction: z
      .looseObject({
        enabled: flag,
        allowed_actors: z.array(z.looseObject({ id: int, type: z.string() })).nullish(),
      })
      .nullish(),
    required_reviewers: z
      .array(
        z.looseObject({
          file_patterns: strings,
          minimum_approvals: int,
          reviewer: z.looseObject({ id: int, type: z.string() }),
        }),
      )
      .nullish(),
  }),
  required_status_checks: z.looseObject({
    strict_required_status_checks_policy: flag,
    do_not_enforce_on_create: flag,
    required_status_checks: z
      .array(z.looseObject({ context: z.string(), integration_id: int.nullish() }))
      .optional(),
  }),
  merge_queue: z.looseObject({
    check_response_timeout_minutes: int.optional(),
    grouping_strategy: z.string().optional(),
    max_entries_to_build: int.optional(),
    max_entries_to_merge: int.optional(),
    merge_method: z.string().optional(),
    min_entries_to_merge: int.optional(),
    min_entries_to_merge_wait_minutes: int.optional(),
  }),
  required_deployments: z.looseObject({ required_deployment_environments: strings.optional() }),
  commit_message_pattern: pattern,
  commit_author_email_pattern: pattern,
  committer_email_pattern: pattern,
  branch_name_pattern: pattern,
  tag_name_pattern: pattern,
  code_scanning: z.looseObject({
    code_scanning_tools: z
      .array(
        z.looseObject({
          tool: z.string(),
          alerts_threshold: z.string(),
          security_alerts_threshold: z.string(),
        }),
      )
      .optional(),
  }),
  workflows: z.looseObject({
    do_not_enforce_on_create: flag,
    workflows: z
      .array(
        z.looseObject({
          path: z.string(),
          repository_id: int,
          ref: z.string().nullish(),
          sha: z.string().nullish(),
        }),
      )
      .optional(),
  }),
  file_path_restriction: z.looseObject({ restricted_file_paths: strings.optional() }),
  max_file_size: z.looseObject({ max_file_size: int }),
  file_extension_restriction: z.looseObject({ restricted_file_extensions: strings.optional() }),
  max_file_path_length: z.looseObject({ max_file_path_length: int }),
};

const patterns = z.looseObject({ include: strings.nullish(), exclude: strings.nullish() });
const propertySpec = z.looseObject({
  name: z.string(),
  property_values: strings,
  source: z.string().optional(),
});

/**
 * The Repository ruleset as far as the planner reads it; also the shape of what forgeplan sends.
 * `bypass_actors` is optional because the service leaves it out for a caller who may not edit the
 * ruleset: such a read is refused rather than taken for "no actors" (see `normalizeRuleset`).
 */
export const readRuleset = z.looseObject({
  id: int.optional(),
  name: z.string(),
  target: z.string().optional(),
  source_type: z.string().optional(),
  enforcement: z.string(),
  bypass_actors: z
    .array(
      z.looseObject({
        actor_id: int.nullish(),
        // Any string: a type GitHub added since (e.g. EnterpriseOwner,
        // integrations/terraform-provider-github#3487) is named, not taken for a malformed read.
        actor_type: z.string(),
        bypass_mode: z.enum(["always", "pull_request", "exempt"]).optional(),
      }),
    )
    .optional(),
  conditions: z
    .looseObject({
      ref_name: patterns.nullish(),
      repository_name: patterns.extend({ protected: z.boolean().nullish() }).nullish(),
      repository_property: z
        .looseObject({
          include: z.array(propertySpec).nullish(),
          exclude: z.array(propertySpec).nullish(),
        })
        .nullish(),
      repository_id: z.looseObject({ repository_ids: z.array(int).nullish() }).nullish(),
    })
    .nullish(),
  rules: z
    .array(z.looseObject({ type: z.string(), parameters: z.unknown().optional() }))
    .optional(),
});
export type ReadRuleset = z.infer<typeof readRuleset>;

/** What `GET …/rulesets/{id}` answers, as a reader's shape. */
export const RULESET_SHAPE = { name: "a Repository ruleset", schema: readRuleset };

/** A ruleset as `GET …/rulesets` lists it. */
export const listedRuleset = z.looseObject({
  id: int,
  name: z.string(),
  source_type: z.string().optional(),
});

const set = (values: readonly string[] | null | undefined): string[] =>
  [...new Set(values ?? [])].sort();

function byJson<T>(values: readonly T[]): T[] {
  const unique = new Map(values.map((value) => [JSON.stringify(value), value]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

const MERGE_METHODS = ["merge", "squash", "rebase"];

/** One rule's parameters with every default explicit; the sets sorted. */
function normalizeParameters(type: RuleType, raw: Json): Json {
  switch (type) {
    case "update":
      return { update_allows_fetch_and_merge: raw.update_allows_fetch_and_merge === true };
    case "pull_request": {
      const dismissal = raw.dismissal_restriction as
        | { enabled?: boolean; allowed_actors?: Array<{ id: number; type: string }> | null }
        | null
        | undefined;
      const enabled = dismissal?.enabled === true;
      const methods = raw.allowed_merge_methods as string[] | undefined;
      return {
        required_approving_review_count: (raw.required_approving_review_count as number) ?? 0,
        dismiss_stale_reviews_on_push: raw.dismiss_stale_reviews_on_push === true,
        require_code_owner_review: raw.require_code_owner_review === true,
        require_last_push_approval: raw.require_last_push_approval === true,
        required_review_thread_resolution: raw.required_review_thread_resolution === true,
        allowed_merge_methods: MERGE_METHODS.filter((method) =>
          (methods ?? MERGE_METHODS).includes(method),
        ),
        dismissal_restriction: {
          enabled,
          allowed_actors: enabled
            ? byJson((dismissal?.allowed_actors ?? []).map(({ id, type }) => ({ id, type })))
            : [],
        },
        required_reviewers: byJson(
          ((raw.required_reviewers ?? []) as Array<Json & { reviewer: Json }>).map((item) => ({
            file_patterns: set(item.file_patterns as string[]),
            minimum_approvals: item.minimum_approvals,
            reviewer: { id: item.reviewer.id, type: "Team" },
          })),
        ),
      };
    }
    case "required_status_checks":
      return {
        strict_required_status_checks_policy: raw.strict_required_status_checks_policy === true,
        do_not_enforce_on_create: raw.do_not_enforce_on_create === true,
        required_status_checks: byJson(
          (
            (raw.required_status_checks ?? []) as Array<{
              context: string;
              integration_id?: number | null;
            }>
          ).map(({ context, integration_id }) =>
            typeof integration_id === "number" ? { context, integration_id } : { context },
          ),
        ),
      };
    case "merge_queue":
      return Object.fromEntries(
        Object.entries(MERGE_QUEUE_DEFAULTS).map(([key, fallback]) => [key, raw[key] ?? fallback]),
      );
    case "required_deployments":
      return {
        required_deployment_environments: set(raw.required_deployment_environments as string[]),
      };
    case "code_scanning":
      return {
        code_scanning_tools: byJson(
          ((raw.code_scanning_tools ?? []) as Json[]).map((tool) => ({
            tool: tool.tool,
            alerts_threshold: tool.alerts_threshold,
            security_alerts_threshold: tool.security_alerts_threshold,
          })),
        ),
      };
    case "workflows":
      return {
        do_not_enforce_on_create: raw.do_not_enforce_on_create === true,
        workflows: byJson(
          ((raw.workflows ?? []) as Json[]).map((workflow) => ({
            path: workflow.path,
            repository_id: workflow.repository_id,
            ...(typeof workflow.ref === "string" ? { ref: workflow.ref } : {}),
            ...(typeof workflow.sha === "string" ? { sha: workflow.sha } : {}),
          })),
        ),
      };
    case "file_path_restriction":
      return { restricted_file_paths: set(raw.restricted_file_paths as string[]) };
    case "file_extension_restriction":
      return { restricted_file_extensions: set(raw.restricted_file_extensions as string[]) };
    case "max_file_size":
      return { max_file_size: raw.max_file_size };
    case "max_file_path_length":
      return { max_file_path_length: raw.max_file_path_length };
    default:
      if ((PATTERN_RULES as readonly string[]).includes(type)) {
        return {
          operator: raw.operator,
          pattern: raw.pattern,
          negate: raw.negate === true,
          name: typeof raw.name === "string" ? raw.name : "",
        };
      }
      return raw;
  }
}

function specs(values: Array<z.infer<typeof propertySpec>> | null | undefined): PropertySpec[] {
  return byJson(
    (values ?? []).map((spec) => ({
      name: spec.name,
      property_values: set(spec.property_values),
      source: spec.source === "system" ? "system" : "custom",
    })),
  );
}

function normalizeConditions(raw: ReadRuleset["conditions"]): GhConditions {
  const conditions: GhConditions = {
    ref_name: { include: set(raw?.ref_name?.include), exclude: set(raw?.ref_name?.exclude) },
  };
  if (raw?.repository_name) {
    conditions.repository_name = {
      include: set(raw.repository_name.include),
      exclude: set(raw.repository_name.exclude),
      protected: raw.repository_name.protected === true,
    };
  }
  if (raw?.repository_property) {
    conditions.repository_property = {
      include: specs(raw.repository_property.include),
      exclude: specs(raw.repository_property.exclude),
    };
  }
  if (raw?.repository_id) {
    conditions.repository_id = {
      repository_ids: [...new Set(raw.repository_id.repository_ids ?? [])].sort((a, b) => a - b),
    };
  }
  return conditions;
}

const ID_LESS = new Set(["OrganizationAdmin", "DeployKey"]);

/** What GitHub answers for a parameter that is not set: nothing, false, zero, empty. */
function isOff(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object" && value !== null) return Object.keys(value).length === 0;
  return value === undefined || value === null || value === false || value === 0 || value === "";
}

/**
 * The parameters of a managed rule that forgeplan does not know and that are set, as
 * `type.parameter: value`. GitHub answers parameters its published schema lacks (e.g.
 * `pull_request.automatic_copilot_code_review_enabled`: integrations/terraform-provider-github#2694,
 * google/go-github#3505), `false` unless set in its web UI. A PUT's `rules` are the rules as sent,
 * so writing the rule without such a parameter would reset it: one that is set stops the write;
 * one that is off is what leaving it out gives, so it is ignored (no perpetual diff).
 */
function unknownParameters(type: RuleType, schema: z.ZodType, given: unknown): string[] {
  if (typeof given !== "object" || given === null || Array.isArray(given)) return [];
  const known = (schema as z.ZodObject).shape;
  return Object.entries(given)
    .filter(([key, value]) => !(key in known) && !isOff(value))
    .map(([key, value]) => `${type}.${key}: ${JSON.stringify(value)}`);
}

export type Normalized =
  | { kind: "ok"; ruleset: GhRuleset }
  /** A rule type forgeplan does not manage: writing the ruleset would remove it. */
  | { kind: "unmanaged"; types: string[] }
  /**
   * Settings forgeplan cannot write: a rule parameter it does not know that is set, a bypass actor
   * of a type it does not know. Writing the ruleset would reset or remove them.
   */
  | { kind: "unknown"; settings: string[] }
  /** Not the shape of a ruleset: where it first differs. */
  | { kind: "malformed"; problem: string };

/**
 * Normalizes a ruleset read from the service, a request body, or a desired body. `actorsKnown`:
 * whether a missing `bypass_actors` means "none" (a body) or "not shown to this caller" (a read).
 */
export function normalizeRuleset(value: unknown, actorsKnown: boolean): Normalized {
  const parsed = readRuleset.safeParse(value);
  if (!parsed.success) return { kind: "malformed", problem: firstProblem(parsed.error) };
  const read = parsed.data;
  if (read.bypass_actors === undefined && !actorsKnown) {
    return {
      kind: "malformed",
      problem:
        "bypass_actors is missing: the token may not edit this ruleset, so its bypass list cannot be compared",
    };
  }
  const unmanaged = (read.rules ?? [])
    .map((rule) => rule.type)
    .filter((type) => !(RULE_TYPES as readonly string[]).includes(type));
  if (unmanaged.length > 0) return { kind: "unmanaged", types: [...new Set(unmanaged)] };
  const rules: GhRuleset["rules"] = {};
  const unknown = (read.bypass_actors ?? [])
    .filter((actor) => !(ACTOR_TYPES as readonly string[]).includes(actor.actor_type))
    .map(
      (actor) => `bypass actor ${actor.actor_type}${actor.actor_id ? ` ${actor.actor_id}` : ""}`,
    );
  for (const [index, rule] of (read.rules ?? []).entries()) {
    const type = rule.type as RuleType;
    const schema = PARAMETERS[type];
    if (schema === null) {
      rules[type] = null;
      continue;
    }
    unknown.push(...unknownParameters(type, schema, rule.parameters));
    const parameters = schema.safeParse(rule.parameters ?? {});
    if (!parameters.success) {
      return {
        kind: "malformed",
        problem: firstProblem(parameters.error, `rules[${index}].parameters`),
      };
    }
    rules[type] = normalizeParameters(type, parameters.data as Json);
  }
  if (unknown.length > 0) return { kind: "unknown", settings: unknown };
  return {
    kind: "ok",
    ruleset: {
      name: read.name,
      target: read.target ?? "branch",
      enforcement: read.enforcement,
      bypass_actors: byJson(
        (read.bypass_actors ?? []).map((actor) => ({
          actor_id: ID_LESS.has(actor.actor_type) ? null : (actor.actor_id ?? null),
          actor_type: actor.actor_type as ActorType,
          bypass_mode: actor.bypass_mode ?? "always",
        })),
      ),
      conditions: normalizeConditions(read.conditions),
      rules,
    },
  };
}

/** The rules as a request lists them: in the order of RULE_TYPES, parameters in full. */
function rulesBody(rules: GhRuleset["rules"]): Json[] {
  return RULE_TYPES.filter((type) => rules[type] !== undefined).map((type) => {
    const parameters = rules[type];
    return parameters === null || parameters === undefined ? { type } : { type, parameters };
  });
}

/**
 * The POST/PUT body: only members GitHub's request schema has, each always sent, since a PUT keeps
 * what it is not sent (a ruleset turned into a push ruleset must lose its ref conditions: `{}`).
 */
export function requestBody(ruleset: GhRuleset, level: "repository" | "organization"): Json {
  const { ref_name, ...targeting } = ruleset.conditions;
  const refs = ruleset.target === "push" ? {} : { ref_name };
  return {
    name: ruleset.name,
    target: ruleset.target,
    enforcement: ruleset.enforcement,
    bypass_actors: ruleset.bypass_actors.map((actor) => ({ ...actor })),
    conditions: level === "repository" ? refs : { ...refs, ...targeting },
    rules: rulesBody(ruleset.rules),
  };
}

/** Names the service's ids for a reviewer; undefined when the id is not known. */
export type Namer = (type: string, id: number | null) => string | undefined;

const ROLE_NAMES: Record<number, string> = { 2: "maintain", 4: "write", 5: "admin" };

export function actorName(namer: Namer, type: string, id: number | null): string {
  switch (type) {
    case "OrganizationAdmin":
      return "OrganizationAdmin";
    case "DeployKey":
      return "deploy keys";
    case "RepositoryRole":
      return `role ${ROLE_NAMES[id ?? 0] ?? `#${id}`}`;
    case "Team":
      return `team ${namer("Team", id) ?? `#${id}`}`;
    case "Integration":
      return `app ${namer("Integration", id) ?? `#${id}`}`;
    case "IntegrationInstallation":
      return `app ${namer("IntegrationInstallation", id) ?? `(installation #${id})`}`;
    default:
      return `${type.toLowerCase()} #${id}`;
  }
}

/** The ruleset as the plan shows it: actors by name, parameterless rules as `true`. */
export interface ShownRuleset {
  target: string;
  enforcement: string;
  conditions: GhConditions;
  bypass_actors: string[];
  rules: Record<string, unknown>;
}

export function shown(ruleset: GhRuleset, namer: Namer): ShownRuleset {
  const rules: Record<string, unknown> = {};
  for (const type of RULE_TYPES) {
    const parameters = ruleset.rules[type];
    if (parameters === undefined) continue;
    if (parameters === null) rules[type] = true;
    else if (type === "pull_request") {
      const dismissal = parameters.dismissal_restriction as {
        enabled: boolean;
        allowed_actors: Array<{ id: number; type: string }>;
      };
      rules[type] = {
        ...parameters,
        dismissal_restriction: {
          enabled: dismissal.enabled,
          allowed_actors: set(
            dismissal.allowed_actors.map((actor) => actorName(namer, actor.type, actor.id)),
          ),
        },
        required_reviewers: (
          parameters.required_reviewers as Array<Json & { reviewer: { id: number } }>
        ).map(({ reviewer, ...rest }) => ({
          team: namer("Team", reviewer.id) ?? `#${reviewer.id}`,
          ...rest,
        })),
      };
    } else rules[type] = parameters;
  }
  return {
    target: ruleset.target,
    enforcement: ruleset.enforcement,
    conditions: ruleset.conditions,
    bypass_actors: set(
      ruleset.bypass_actors.map(
        (actor) => `${actorName(namer, actor.actor_type, actor.actor_id)} (${actor.bypass_mode})`,
      ),
    ),
    rules,
  };
}

/** The ids a ruleset names, to look their names up before it is shown. */
export function referencedIds(ruleset: GhRuleset): Array<{ type: string; id: number }> {
  const refs: Array<{ type: string; id: number }> = [];
  for (const actor of ruleset.bypass_actors) {
    if (actor.actor_id !== null) refs.push({ type: actor.actor_type, id: actor.actor_id });
  }
  const pullRequest = ruleset.rules.pull_request;
  if (pullRequest) {
    const dismissal = pullRequest.dismissal_restriction as {
      allowed_actors: Array<{ id: number; type: string }>;
    };
    refs.push(...dismissal.allowed_actors);
    for (const reviewer of pullRequest.required_reviewers as Array<{ reviewer: { id: number } }>) {
      refs.push({ type: "Team", id: reviewer.reviewer.id });
    }
  }
  return refs;
}
