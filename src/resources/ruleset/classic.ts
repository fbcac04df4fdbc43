/**
 * Classic branch protection and rulesets: the ruleset that enforces what a branch's classic
 * protection enforces, the fields that have no exact ruleset equivalent (said, never guessed), and
 * whether the rules that apply to a branch cover what its classic protection required.
 *
 * Exact equivalents (GitHub's docs, "About rulesets" and the rule descriptions in @octokit/openapi):
 * allow_deletions false → `deletion`; allow_force_pushes false → `non_fast_forward`;
 * required_linear_history → `required_linear_history`; required_signatures → `required_signatures`;
 * lock_branch → `update` (allow_fork_syncing → `update_allows_fetch_and_merge`); required reviews →
 * `pull_request` (count, stale dismissal, code owners, last push; required_conversation_resolution →
 * `required_review_thread_resolution`; dismissal by teams and apps → `dismissal_restriction`);
 * required status checks → `required_status_checks` (strict → the strict policy, a check's app →
 * its `integration_id`, any app → none).
 */
import type { DiffEntry } from "../../core/plan.js";
import { isPlainObject } from "../../core/plain.js";
import type { CanonicalProtection } from "../classic-protection.js";
import type { RulesSettings } from "./rules.js";
import type { RulesetSettings } from "./settings.js";

type Json = Record<string, unknown>;

/** One rule a branch must be under for its classic protection to be covered; only what is compared. */
export interface Requirement {
  type: string;
  parameters?: Json;
}

/** What the GET of a branch's rules must show before its classic protection is deleted. */
export interface CoverageExpectation {
  branch: string;
  rules: Requirement[];
}

/** The rules that carry a classic protection's enforcement, in the form coverage compares. */
export function requirementsOf(
  protection: CanonicalProtection,
  requiredSignatures: boolean,
): Requirement[] {
  const requirements: Requirement[] = [];
  if (!protection.allow_deletions) requirements.push({ type: "deletion" });
  if (!protection.allow_force_pushes) requirements.push({ type: "non_fast_forward" });
  if (protection.required_linear_history) requirements.push({ type: "required_linear_history" });
  if (requiredSignatures) requirements.push({ type: "required_signatures" });
  if (protection.lock_branch) {
    requirements.push({
      type: "update",
      parameters: { update_allows_fetch_and_merge: protection.allow_fork_syncing },
    });
  }
  const reviews = protection.required_pull_request_reviews;
  if (reviews) {
    requirements.push({
      type: "pull_request",
      parameters: {
        required_approving_review_count: reviews.required_approving_review_count,
        dismiss_stale_reviews_on_push: reviews.dismiss_stale_reviews,
        require_code_owner_review: reviews.require_code_owner_reviews,
        require_last_push_approval: reviews.require_last_push_approval,
        required_review_thread_resolution: protection.required_conversation_resolution,
      },
    });
  }
  const checks = protection.required_status_checks;
  if (checks) {
    requirements.push({
      type: "required_status_checks",
      parameters: {
        strict_required_status_checks_policy: checks.strict,
        required_status_checks: checks.checks.map(({ context, app_id }) =>
          typeof app_id === "number" ? { context, integration_id: app_id } : { context },
        ),
      },
    });
  }
  return requirements;
}

function listed(what: string, lists: { users: string[]; teams: string[]; apps: string[] }): string {
  const parts = (["users", "teams", "apps"] as const)
    .filter((key) => lists[key].length > 0)
    .map((key) => `${key} ${lists[key].join(", ")}`);
  return `${what} (${parts.join("; ")})`;
}

/** The fields of a classic protection that no ruleset field says exactly: each one sentence. */
export function notEquivalent(protection: CanonicalProtection): string[] {
  const notes: string[] = [];
  if (!protection.enforce_admins) {
    notes.push(
      "enforce_admins is off: the classic protection does not bind administrators, a ruleset binds everyone not in bypass_actors; not migrated (add { role: admin } to bypass_actors to keep admins out of it)",
    );
  }
  if (protection.restrictions) {
    notes.push(
      `${listed("restrictions on who may push", protection.restrictions)} have no ruleset equivalent: a ruleset lets only its bypass actors past its rules, the inverse of an allow list; not migrated`,
    );
  }
  if (protection.block_creations) {
    notes.push(
      "block_creations works together with the push restrictions, which have no equivalent; not migrated",
    );
  }
  const reviews = protection.required_pull_request_reviews;
  if (reviews) {
    const bypass = reviews.bypass_pull_request_allowances;
    if (bypass.users.length + bypass.teams.length + bypass.apps.length > 0) {
      notes.push(
        `${listed("bypass_pull_request_allowances", bypass)} have no exact equivalent: a bypass actor bypasses the whole ruleset, not only its pull request rule; not migrated`,
      );
    }
    const dismissal = reviews.dismissal_restrictions;
    if (dismissal !== null && dismissal.users.length > 0) {
      notes.push(
        `review dismissal by users (${dismissal.users.join(", ")}) is not migrated: forgeplan names no users in rulesets`,
      );
    }
  } else if (protection.required_conversation_resolution) {
    notes.push(
      "required_conversation_resolution without required reviews has no equivalent: a ruleset resolves conversations only inside its pull_request rule; not migrated",
    );
  }
  return notes;
}

/** The rules of the ruleset that replaces a classic protection, as the configuration writes them. */
function rulesOf(protection: CanonicalProtection, requirements: Requirement[]): RulesSettings {
  const rules: Json = {};
  for (const requirement of requirements) {
    if (requirement.type === "pull_request") {
      const dismissal = protection.required_pull_request_reviews?.dismissal_restrictions;
      // Restricted to nobody (admins only) stays restricted: enabled with no actors.
      rules.pull_request = {
        ...requirement.parameters,
        ...(dismissal
          ? {
              dismissal_restriction: {
                enabled: true,
                allowed_actors: [
                  ...dismissal.teams.map((team) => ({ team })),
                  ...dismissal.apps.map((app) => ({ app })),
                ],
              },
            }
          : {}),
      };
    } else rules[requirement.type] = requirement.parameters ?? true;
  }
  return rules as RulesSettings;
}

export interface Replacement {
  settings: RulesetSettings;
  notes: string[];
}

/** The ruleset that enforces what a branch's classic protection enforces, and what it cannot. */
export function replacementFor(
  branch: string,
  protection: CanonicalProtection,
  requiredSignatures: boolean,
  enforcement: "active" | "evaluate",
): Replacement {
  return {
    settings: {
      target: "branch",
      enforcement,
      conditions: { ref_name: { include: [`refs/heads/${branch}`], exclude: [] } },
      bypass_actors: [],
      rules: rulesOf(protection, requirementsOf(protection, requiredSignatures)),
      replaces_protection: [branch],
    },
    notes: notEquivalent(protection),
  };
}

type EffectiveRule = { type?: unknown; parameters?: unknown };

function param(rule: EffectiveRule, key: string): unknown {
  const parameters = rule.parameters;
  return parameters !== null && typeof parameters === "object"
    ? (parameters as Json)[key]
    : undefined;
}

/**
 * What of the requirements the rules that apply to a branch do not cover, as diff entries: needed
 * (before) and found (after). Every rule that applies is enforced, so a requirement is covered by
 * the strictest of the rules of its type taken together.
 */
export function uncovered(
  effective: readonly EffectiveRule[],
  requirements: readonly Requirement[],
): DiffEntry[] {
  const gaps: DiffEntry[] = [];
  for (const requirement of requirements) {
    const rules = effective.filter((rule) => rule.type === requirement.type);
    if (rules.length === 0) {
      gaps.push({ path: requirement.type, before: requirement.parameters ?? true });
      continue;
    }
    const wanted = requirement.parameters ?? {};
    for (const [key, value] of Object.entries(wanted)) {
      const found = rules.map((rule) => param(rule, key));
      const path = `${requirement.type}.${key}`;
      if (key === "update_allows_fetch_and_merge") {
        // Allowing fetch-and-merge loosens the rule: a rule that forbids it covers one that allows it.
        if (value === false && !found.includes(false))
          gaps.push({ path, before: false, after: true });
      } else if (typeof value === "number") {
        const best = Math.max(...found.map((item) => (typeof item === "number" ? item : 0)));
        if (best < value) gaps.push({ path, before: value, after: best });
      } else if (value === true && !found.includes(true)) {
        gaps.push({ path, before: true, after: false });
      } else if (Array.isArray(value)) {
        const checks = found.flatMap((item) =>
          Array.isArray(item) ? item.filter(isPlainObject) : [],
        );
        for (const check of value.filter(isPlainObject)) {
          const covered = checks.some(
            (candidate) =>
              candidate.context === check.context &&
              (check.integration_id === undefined ||
                candidate.integration_id === check.integration_id),
          );
          if (!covered) gaps.push({ path: `${path}[${String(check.context)}]`, before: check });
        }
      }
    }
  }
  return gaps;
}
