import { attached } from "../../core/attached.js";
import type { Organization, Repository } from "../world/records.js";

/** Custom property definitions of organizations and the values their repositories hold. */

export type PropertyValue = string | string[];

export interface PropertyDefinition {
  property_name: string;
  value_type: "string" | "single_select" | "multi_select" | "true_false" | "url";
  required: boolean;
  default_value: PropertyValue | null;
  description: string | null;
  allowed_values: string[] | null;
  values_editable_by: "org_actors" | "org_and_repo_actors";
  /**
   * "Whether setting properties values is mandatory" (the spec): a repository created without a
   * value of this required property is refused, its default notwithstanding.
   */
  require_explicit_values: boolean;
}

/** Custom property definitions by lower-case name, in the order they were defined. */
export const definitionsOf = attached(
  (_org: Organization) => new Map<string, PropertyDefinition>(),
);

/** A repository's explicit custom property values by lower-case property name. */
export const valuesOf = attached((_repo: Repository) => new Map<string, PropertyValue>());
