/** Custom properties as GitHub answers them, and as forgeplan compares them. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { type Definition, VALUE_TYPES, type ValueType, type WrittenValue } from "./settings.js";

const liveValue = z.union([z.string(), z.array(z.string())]);

/** GitHub's Organization Custom Property; every field the planner reads is checked. */
export const readDefinition = z.looseObject({
  property_name: z.string().min(1),
  value_type: z.enum(VALUE_TYPES),
  required: z.boolean().optional(),
  default_value: liveValue.nullish(),
  description: z.string().nullish(),
  allowed_values: z.array(z.string()).nullish(),
  values_editable_by: z.enum(["org_actors", "org_and_repo_actors"]).nullish(),
  require_explicit_values: z.boolean().optional(),
});
export type ReadDefinition = z.infer<typeof readDefinition>;

export const DEFINITION_SHAPE = { name: "custom properties", schema: readDefinition };

/** One value of `GET /repos/{owner}/{repo}/properties/values` (Custom Property Value). */
const readValue = z.looseObject({ property_name: z.string(), value: liveValue.nullable() });
export const VALUES_SHAPE = { name: "custom property values", schema: readValue };

/** One repository of `GET /orgs/{org}/properties/values` (Organization Repository Custom Property Values). */
export const REPOSITORY_VALUES_SHAPE = {
  name: "repositories' custom property values",
  schema: z.looseObject({ repository_name: z.string(), properties: z.array(readValue) }),
};

/** A definition as `PUT /orgs/{org}/properties/schema/{name}` takes it whole, and as compared. */
export interface CanonicalDefinition {
  value_type: ValueType;
  required: boolean;
  default_value: string | string[] | null;
  allowed_values: string[] | null;
  description: string | null;
  values_editable_by: "org_actors" | "org_and_repo_actors";
  require_explicit_values: boolean;
}

/**
 * A value in the form GitHub stores it: true_false as the text "true" or "false" (its values are
 * strings in the spec's Custom Property Value), a multi_select as its set, sorted.
 */
export function storedValue(
  type: ValueType,
  value: string | readonly string[] | boolean,
): string | string[] {
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value))
    return type === "multi_select" ? [...new Set(value)].sort() : [...value];
  return value as string;
}

/**
 * A written definition with GitHub's defaults where it says nothing: a PUT replaces the whole
 * definition ("Missing optional values will fall back to default values, previous values will be
 * overwritten", the spec), so one written is managed whole.
 */
export function desiredDefinition(written: Definition): CanonicalDefinition {
  const type = written.value_type ?? "string";
  const fallback = written.default_value ?? null;
  return {
    value_type: type,
    required: written.required ?? false,
    default_value: fallback === null ? null : storedValue(type, fallback),
    allowed_values: written.allowed_values ?? null,
    description: written.description ?? null,
    values_editable_by: written.values_editable_by ?? "org_actors",
    require_explicit_values: written.require_explicit_values ?? false,
  };
}

/** A live definition in the same form; GitHub answers unset fields as null or leaves them out. */
export function liveDefinition(live: ReadDefinition): CanonicalDefinition {
  const type = live.value_type;
  const fallback = live.default_value ?? null;
  return {
    value_type: type,
    required: live.required ?? false,
    default_value: fallback === null ? null : storedValue(type, fallback),
    allowed_values: live.allowed_values ?? null,
    description: live.description ?? null,
    values_editable_by: live.values_editable_by ?? "org_actors",
    require_explicit_values: live.require_explicit_values ?? false,
  };
}

/** The value a written one stands for once stored; null unsets. */
export function desiredValue(type: ValueType, written: WrittenValue): string | string[] | null {
  return written === null ? null : storedValue(type, written);
}

/** What the answer to a definition's PUT lacks of what was sent; a values PATCH answers nothing. */
export function verifyCustomProperty(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "PUT") return [];
  const parsed = readDefinition.safeParse(response);
  if (!parsed.success) {
    return [{ path: "(response)", before: "a custom property", after: "something else" }];
  }
  const sent = request.body as CanonicalDefinition;
  const { value_type, required, default_value, allowed_values, description, values_editable_by } =
    liveDefinition(parsed.data);
  return diffValues(
    {
      value_type: sent.value_type,
      required: sent.required,
      default_value:
        sent.default_value === null ? null : storedValue(sent.value_type, sent.default_value),
      allowed_values: sent.allowed_values,
      description: sent.description,
      values_editable_by: sent.values_editable_by,
    },
    { value_type, required, default_value, allowed_values, description, values_editable_by },
  );
}
