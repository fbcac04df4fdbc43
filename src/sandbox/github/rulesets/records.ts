import { attached } from "../../core/attached.js";
import type { GithubWorld, Organization, Repository } from "../world/records.js";

export type Target = "branch" | "tag" | "push" | "repository";
export type Enforcement = "disabled" | "active" | "evaluate";
export type ActorType =
  "Integration" | "OrganizationAdmin" | "RepositoryRole" | "Team" | "DeployKey" | "User";
export type BypassMode = "always" | "pull_request" | "exempt";

export interface BypassActor {
  actor_id: number | null;
  actor_type: ActorType;
  bypass_mode: BypassMode;
}

export interface Rule {
  type: string;
  parameters?: Record<string, unknown>;
}

export interface NamePatterns {
  include: string[];
  exclude: string[];
}

export interface PropertySpec {
  name: string;
  property_values: string[];
  source: "custom" | "system";
}

export interface Conditions {
  ref_name?: NamePatterns;
  repository_name?: NamePatterns & { protected: boolean };
  repository_id?: { repository_ids: number[] };
  repository_property?: { include: PropertySpec[]; exclude: PropertySpec[] };
}

export type RulesetSource =
  { type: "Repository"; repo: Repository } | { type: "Organization"; org: Organization };

/** A ruleset as stored, from the POST/PUT bodies model.ts checks as GitHub does. */
export interface Ruleset {
  id: number;
  name: string;
  target: Target;
  enforcement: Enforcement;
  source: RulesetSource;
  bypass_actors: BypassActor[];
  conditions: Conditions | null;
  rules: Rule[];
  created_at: string;
  updated_at: string;
}

/** A repository's own rulesets by id (organization rulesets are the organization's). */
export const repositoryRulesetsOf = attached((_repo: Repository) => new Map<number, Ruleset>());

/** An organization's rulesets by id. */
export const organizationRulesetsOf = attached((_org: Organization) => new Map<number, Ruleset>());

/** Ruleset ids are one sequence across the world. */
export const rulesetIds = attached((_world: GithubWorld) => ({ next: 1 }));
