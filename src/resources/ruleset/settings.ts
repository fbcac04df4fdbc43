/**
 * How rulesets are written in the configuration: `rulesets: {<name>: …}` in repository settings and
 * under `organizations: [{name, rulesets}]`. Bypass actors and the actors inside rules are written by
 * name (team slug, app slug, role) and resolved to the service's ids at plan time. Rule types are a
 * mapping keyed by type, so layers (defaults, profiles, entries) merge rule by rule.
 */
import * as z from "zod";
import type { Path } from "../../config/errors.js";
import { closed, name, nameList, orNull } from "../../config/fields.js";
import { defineSetting, type EntryFacts, type RuleProblem } from "../../config/spec.js";
import { isPlainObject } from "../../core/plain.js";
import { bypassActor } from "./actors.js";
import { ruleFitsTarget, rules, type Target } from "./rules.js";

export type Level = "repository" | "organization";

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

/**
 * A ruleset of either level as the planner takes it: an organization's, whose conditions a
 * repository's are a part of, with the branches a repository's replaces.
 */
export type RulesetSettings = z.output<typeof organizationRuleset> &
  Pick<z.output<typeof repositoryRuleset>, "replaces_protection">;

/** Rulesets keyed by name; null means "this ruleset must not exist". */
export type Rulesets = Record<string, RulesetSettings | null>;

const rulesetName = z.string().min(1).max(100);

const repositoryRulesets = z
  .record(
    rulesetName,
    orNull(repositoryRuleset).describe(
      "The ruleset of this name; null means no ruleset of this name may exist.",
    ),
  )
  .describe("Rulesets by name.");

// Organization entries are not layered: every rule is checked on the written value itself.
const organizationRulesets = z
  .record(
    rulesetName,
    orNull(organizationRuleset).describe(
      "The ruleset of this name; null means no ruleset of this name may exist.",
    ),
  )
  .superRefine((value, context) => {
    for (const problem of rulesetsProblems(value, "organization")) {
      context.addIssue({
        code: "custom",
        path: [...problem.path],
        message: problem.message,
      });
    }
  })
  .describe("Rulesets by name.");

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
function repositoryRulesetRules(rulesets: Rulesets, entry: EntryFacts): RuleProblem[] {
  const problems = rulesetsProblems(rulesets, "repository");
  const replacedBy = new Map<string, Path>();
  const written = entry.settings?.branch_protection;
  const protections = isPlainObject(written) ? written : undefined;
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

function defines(rulesets: Rulesets) {
  return Object.keys(rulesets).map((name) => ({
    id: `ruleset ${name}`,
    path: [name],
    what: `the ruleset "${name}"`,
  }));
}

function print(rulesets: Rulesets) {
  return Object.keys(rulesets).map((name) => ({ kind: "ruleset", name, path: [name] }));
}

export const repositoryRulesetsSetting = defineSetting({
  key: "rulesets",
  schema: repositoryRulesets,
  rules: repositoryRulesetRules,
  defines,
  print,
});

export const organizationRulesetsSetting = defineSetting({
  key: "rulesets",
  schema: organizationRulesets,
  defines,
  print,
});
