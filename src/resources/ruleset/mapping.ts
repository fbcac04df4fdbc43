/**
 * Between the configuration's form of a ruleset (names, rules keyed by type, defaults left out) and
 * the service's (ids, normalized): `desiredRuleset` resolves what is written, `rulesetSettings`
 * writes a live ruleset back as configuration that resolves to exactly it (export, migration).
 */
import { ReadFailed } from "../context.js";
import { type GhRuleset, normalizeRuleset } from "./canonical.js";
import type { Directory } from "./directory.js";
import {
  type BypassActorSettings,
  ORGANIZATION_ADMIN,
  ROLE_IDS,
  type RuleActorSettings,
} from "./actors.js";
import { RULE_TYPES, type RulesSettings, type RuleType } from "./rules.js";
import type { Level, RulesetSettings } from "./settings.js";

type Json = Record<string, unknown>;

type PullRequestSettings = NonNullable<NonNullable<RulesSettings["pull_request"]>>;

/** A pull_request rule's parameters: its actors and reviewers by name, resolved to ids. */
async function pullRequestParameters(dir: Directory, written: PullRequestSettings): Promise<Json> {
  const { dismissal_restriction: dismissal, required_reviewers: reviewers, ...rest } = written;
  return {
    ...rest,
    ...(dismissal === undefined
      ? {}
      : {
          dismissal_restriction: {
            enabled: dismissal.enabled ?? true,
            allowed_actors: await Promise.all(
              (dismissal.allowed_actors ?? []).map((actor) => dir.ruleActor(actor)),
            ),
          },
        }),
    required_reviewers: await Promise.all(
      (reviewers ?? []).map(async ({ team, file_patterns, minimum_approvals }) => ({
        file_patterns,
        minimum_approvals,
        reviewer: { id: await dir.teamId(team), type: "Team" },
      })),
    ),
  };
}

/** A rule's parameters as written (`true`: a rule without parameters, `update`'s empty ones). */
async function parametersOf(
  dir: Directory,
  type: RuleType,
  rules: RulesSettings,
): Promise<Json | undefined> {
  if (type === "pull_request" && rules.pull_request) {
    return pullRequestParameters(dir, rules.pull_request);
  }
  const value = rules[type];
  if (value === true) return type === "update" ? {} : undefined;
  return value ?? undefined;
}

/**
 * The ruleset the configuration asks for, in the service's normalized form; what is not written
 * takes its default. Throws `Unresolved` for a team or app that does not exist.
 */
export async function desiredRuleset(
  dir: Directory,
  name: string,
  settings: RulesetSettings,
): Promise<GhRuleset> {
  const rules: Json[] = [];
  const written = settings.rules ?? {};
  for (const type of RULE_TYPES) {
    const value = written[type];
    if (value === undefined || value === null) continue;
    const parameters = await parametersOf(dir, type, written);
    rules.push(parameters === undefined ? { type } : { type, parameters });
  }
  const raw = {
    name,
    target: settings.target ?? "branch",
    enforcement: settings.enforcement ?? "active",
    bypass_actors: await Promise.all(
      (settings.bypass_actors ?? []).map((actor) => dir.bypassActor(actor)),
    ),
    conditions: settings.conditions ?? {},
    rules,
  };
  const normalized = normalizeRuleset(raw, true);
  // The configuration's schema admits only what normalizes; anything else is a bug here.
  if (normalized.kind !== "ok")
    throw new Error(`ruleset ${name} does not normalize: ${JSON.stringify(normalized)}`);
  return normalized.ruleset;
}

const ROLE_NAMES = new Map(Object.entries(ROLE_IDS).map(([role, id]) => [id, role]));

function bypassSettings(dir: Directory, ruleset: GhRuleset): BypassActorSettings[] {
  return ruleset.bypass_actors.map((actor) => {
    const mode = { bypass_mode: actor.bypass_mode };
    switch (actor.actor_type) {
      case "OrganizationAdmin":
        return { role: ORGANIZATION_ADMIN, ...mode };
      case "DeployKey":
        return { deploy_keys: true, ...mode };
      case "RepositoryRole": {
        const role = ROLE_NAMES.get(actor.actor_id ?? 0);
        if (role === undefined) {
          throw new ReadFailed(
            `ruleset "${ruleset.name}" lets repository role ${actor.actor_id} bypass it; forgeplan writes only admin, maintain and write`,
          );
        }
        return { role, ...mode };
      }
      case "Team":
        return { team: dir.mustName("Team", actor.actor_id), ...mode };
      case "Integration":
        return { app: dir.mustName("Integration", actor.actor_id), ...mode };
      default:
        throw new ReadFailed(
          `ruleset "${ruleset.name}" lets ${actor.actor_type} ${actor.actor_id} bypass it; forgeplan names no ${actor.actor_type} actors`,
        );
    }
  });
}

function ruleActorSettings(dir: Directory, actor: { id: number; type: string }): RuleActorSettings {
  if (actor.type === "RepositoryRole") {
    const role = ROLE_NAMES.get(actor.id);
    if (role !== undefined) return { role };
  }
  if (actor.type === "Team") return { team: dir.mustName("Team", actor.id) };
  if (actor.type === "IntegrationInstallation") {
    return { app: dir.mustName("IntegrationInstallation", actor.id) };
  }
  throw new ReadFailed(`review dismissal by ${actor.type} ${actor.id} cannot be written by name`);
}

function ruleSettings(dir: Directory, type: RuleType, parameters: Json | null): unknown {
  if (parameters === null) return true;
  if (type !== "pull_request") return parameters;
  const { dismissal_restriction, required_reviewers, ...rest } = parameters as Json & {
    dismissal_restriction: {
      enabled: boolean;
      allowed_actors: Array<{ id: number; type: string }>;
    };
    required_reviewers: Array<{
      file_patterns: string[];
      minimum_approvals: number;
      reviewer: { id: number };
    }>;
  };
  return {
    ...rest,
    ...(dismissal_restriction.enabled
      ? {
          dismissal_restriction: {
            enabled: true,
            allowed_actors: dismissal_restriction.allowed_actors.map((actor) =>
              ruleActorSettings(dir, actor),
            ),
          },
        }
      : {}),
    ...(required_reviewers.length > 0
      ? {
          required_reviewers: required_reviewers.map(
            ({ reviewer, file_patterns, minimum_approvals }) => ({
              team: dir.mustName("Team", reviewer.id),
              file_patterns,
              minimum_approvals,
            }),
          ),
        }
      : {}),
  };
}

/**
 * The configuration that reproduces a live ruleset, every field written. Throws ReadFailed for what
 * forgeplan cannot write by name (an actor it does not name, repositories targeted by id).
 */
export function rulesetSettings(dir: Directory, ruleset: GhRuleset, level: Level): RulesetSettings {
  const { ref_name, repository_name, repository_property, repository_id } = ruleset.conditions;
  if (repository_id !== undefined) {
    throw new ReadFailed(
      `ruleset "${ruleset.name}" targets repositories by id; forgeplan writes repository_name or repository_property`,
    );
  }
  if (!["branch", "tag", "push"].includes(ruleset.target)) {
    throw new ReadFailed(
      `ruleset "${ruleset.name}" targets ${ruleset.target}, which forgeplan does not manage`,
    );
  }
  const conditions: RulesetSettings["conditions"] = {
    ...(ruleset.target === "push" ? {} : { ref_name }),
    ...(level === "organization" && repository_name ? { repository_name } : {}),
    ...(level === "organization" && repository_property ? { repository_property } : {}),
  };
  const rules: Json = {};
  for (const type of RULE_TYPES) {
    const parameters = ruleset.rules[type];
    if (parameters !== undefined) rules[type] = ruleSettings(dir, type, parameters);
  }
  return {
    target: ruleset.target as RulesetSettings["target"],
    enforcement: ruleset.enforcement as RulesetSettings["enforcement"],
    ...(Object.keys(conditions).length > 0 ? { conditions } : {}),
    bypass_actors: bypassSettings(dir, ruleset),
    rules: rules as RulesetSettings["rules"],
  };
}
