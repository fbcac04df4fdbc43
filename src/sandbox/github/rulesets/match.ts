import { sourceName } from "./model.js";
import {
  type Conditions,
  type NamePatterns,
  type PropertySpec,
  type Ruleset,
  repositoryRulesetsOf,
  organizationRulesetsOf,
} from "./records.js";
import type { Repository } from "../world/records.js";
import { repositoryValues } from "../properties/definitions.js";

/**
 * Which rulesets apply where: an organization ruleset's repositories, a ruleset's refs, and so the
 * rules that apply to a branch (`GET /repos/{owner}/{repo}/rules/branches/{branch}`).
 */

function escapeRegExp(text: string): string {
  return text.replace(/[.+^${}()|\\]/g, "\\$&");
}

/**
 * fnmatch as rulesets use it (GitHub's docs, "Using fnmatch syntax"): `*` matches within one path
 * segment, `**` across segments, `?` one character that is not `/`.
 */
export function fnmatch(pattern: string, value: string): boolean {
  let source = "";
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === "*" && pattern[index + 1] === "*") {
      source += ".*";
      index++;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "[" || char === "]") source += `\\${char}`;
    else source += escapeRegExp(char);
  }
  return new RegExp(`^${source}$`).test(value);
}

function namesMatch(value: NamePatterns, name: string, special: (pattern: string) => boolean) {
  const hit = (pattern: string) => special(pattern) || fnmatch(pattern, name);
  return value.include.some(hit) && !value.exclude.some(hit);
}

function refMatches(conditions: Conditions | null, ref: string, repo: Repository): boolean {
  const refName = conditions?.ref_name;
  if (refName === undefined) return false;
  return namesMatch(
    refName,
    ref,
    (pattern) =>
      pattern === "~ALL" ||
      (pattern === "~DEFAULT_BRANCH" && ref === `refs/heads/${repo.default_branch}`),
  );
}

/**
 * A custom property condition: the repository's value (its own, or a required property's default)
 * is one of the values named; a multi-select value matches when any of its values is.
 */
function propertyMatches(spec: PropertySpec, repo: Repository): boolean {
  if (spec.source !== "custom") return false;
  const found = repositoryValues(repo.org, repo).find(
    (entry) => entry.property_name.toLowerCase() === spec.name.toLowerCase(),
  );
  if (found === undefined) return false;
  return [found.value].flat().some((value) => spec.property_values.includes(value));
}

/** Whether an organization ruleset's conditions select the repository. */
export function selectsRepository(ruleset: Ruleset, repo: Repository): boolean {
  const conditions = ruleset.conditions;
  if (conditions === null) return false;
  if (conditions.repository_name) {
    return namesMatch(conditions.repository_name, repo.name, (pattern) => pattern === "~ALL");
  }
  if (conditions.repository_id) return conditions.repository_id.repository_ids.includes(repo.id);
  if (conditions.repository_property) {
    const { include, exclude } = conditions.repository_property;
    return (
      include.every((spec) => propertyMatches(spec, repo)) &&
      !exclude.some((spec) => propertyMatches(spec, repo))
    );
  }
  return false;
}

/** The repository's own rulesets, then those of its organization that select it. */
export function rulesetsOf(repo: Repository, withParents: boolean): Ruleset[] {
  const own = [...repositoryRulesetsOf(repo).values()];
  if (!withParents || repo.org === null) return own;
  const inherited = [...organizationRulesetsOf(repo.org).values()].filter((ruleset) =>
    selectsRepository(ruleset, repo),
  );
  return [...own, ...inherited].sort((a, b) => a.id - b.id);
}

/**
 * The rules that apply to a branch: those of every active branch ruleset, of the repository or its
 * organization, whose ref conditions match `refs/heads/<branch>`. Rules of rulesets in `evaluate`
 * or `disabled` enforcement are not returned (the operation's description).
 */
export function branchRules(repo: Repository, branch: string): Array<Record<string, unknown>> {
  const ref = `refs/heads/${branch}`;
  return rulesetsOf(repo, true)
    .filter(
      (ruleset) =>
        ruleset.enforcement === "active" &&
        ruleset.target === "branch" &&
        refMatches(ruleset.conditions, ref, repo),
    )
    .flatMap((ruleset) =>
      ruleset.rules.map((rule) => ({
        ...rule,
        ruleset_source_type: ruleset.source.type,
        ruleset_source: sourceName(ruleset.source),
        ruleset_id: ruleset.id,
      })),
    );
}
