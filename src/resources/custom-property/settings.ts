/**
 * How custom properties are written: an organization's definitions
 * (`organizations: - custom_properties: {mode, items: {<name>: {value_type, …}}}`, the shape of
 * `labels`) and a repository's values (`repositories: - properties: {<name>: value}`).
 * docs/kinds.md, "Custom properties".
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type PrintBlock, type RuleProblem } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";

/** "Names: a-z, A-Z, 0-9, _, -, $, #" and at most 75 characters (GitHub docs, custom properties). */
export const propertyName = z.string().regex(/^[A-Za-z0-9_$#-]{1,75}$/, {
  error: "a custom property name has 1 to 75 of a-z, A-Z, 0-9, _, -, $ and # (GitHub's rule)",
});

/** "All printable ASCII characters except `"`" (GitHub docs, custom properties). */
export const PROPERTY_TEXT = /^[\x20-\x21\x23-\x7e]+$/;
const text = z.string().regex(PROPERTY_TEXT, {
  error: "a custom property value is printable ASCII without \" (GitHub's rule)",
});

export const VALUE_TYPES = [
  "string",
  "single_select",
  "multi_select",
  "true_false",
  "url",
] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

/** "The property can have up to 200 allowed values" (the spec, allowed_values). */
const MAX_ALLOWED = 200;

const definition = closed({
  value_type: z
    .enum(VALUE_TYPES)
    .optional()
    .describe(
      "The type of its values: string, single_select, multi_select, true_false or url (required).",
    ),
  required: z
    .boolean()
    .optional()
    .describe(
      "Whether every repository has a value (default false); a required property needs a default_value.",
    ),
  default_value: orNull(z.union([text, z.array(text), z.boolean()]))
    .optional()
    .describe(
      "The value of repositories that set none (a list for multi_select; true or false for true_false); default none.",
    ),
  allowed_values: orNull(z.array(text).max(MAX_ALLOWED))
    .optional()
    .describe(
      "The values a single_select or multi_select property may take, in order (at most 200).",
    ),
  description: orNull(z.string()).optional().describe("What the property is for; default none."),
  values_editable_by: z
    .enum(["org_actors", "org_and_repo_actors"])
    .optional()
    .describe(
      "Who may set values: org_actors (default, the organization's owners) or org_and_repo_actors (also repository admins).",
    ),
  require_explicit_values: z
    .boolean()
    .optional()
    .describe(
      "Whether a repository must be given a value when it is created (GitHub then refuses a creation without one); default false.",
    ),
});

const definitionsSchema = closed({
  mode: modeField("custom properties"),
  items: z
    .record(
      propertyName,
      orNull(definition).describe(
        "The definition of this property, managed whole; null means the property must not exist.",
      ),
    )
    .optional()
    .describe("Custom properties by name (compared in any case, as GitHub does)."),
});

export type Definition = z.output<typeof definition>;
export type Definitions = z.output<typeof definitionsSchema>;

/** What defaults, profiles and an entry make together must follow GitHub's rules for a definition. */
function definitionRules(value: Definitions): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const seen = new Map<string, string>();
  for (const [name, item] of Object.entries(value.items ?? {})) {
    const path = ["items", name];
    const twin = seen.get(name.toLowerCase());
    if (twin !== undefined) {
      problems.push({
        path,
        message: `${name} and ${twin} are one property: names are compared in any case`,
      });
    }
    seen.set(name.toLowerCase(), name);
    if (item === null) continue;
    if (item.value_type === undefined) {
      problems.push({ path, message: "a custom property needs its value_type" });
      continue;
    }
    const selects = item.value_type === "single_select" || item.value_type === "multi_select";
    const allowed = item.allowed_values ?? null;
    if (selects && (allowed === null || allowed.length === 0)) {
      problems.push({
        path: [...path, "value_type"],
        message: `a ${item.value_type} property needs allowed_values`,
      });
    }
    if (!selects && allowed !== null) {
      problems.push({
        path: [...path, "allowed_values"],
        message: "allowed_values are only for single_select and multi_select properties",
      });
    }
    const fallback = item.default_value ?? null;
    if (item.required === true && fallback === null) {
      problems.push({
        path: [...path, "required"],
        message: "a required property needs a default_value (GitHub's rule)",
      });
    }
    if (fallback !== null) {
      const problem = valueProblem(item.value_type, allowed, fallback);
      if (problem !== undefined)
        problems.push({ path: [...path, "default_value"], message: problem });
    }
  }
  return problems;
}

/**
 * Why a value cannot be one of a property of this type and these allowed values, or undefined.
 * Values are compared in their case (observed: joshjohanning/github-misc-scripts#42, "the property
 * name is case insensitive, but the value is case sensitive").
 */
export function valueProblem(
  type: ValueType,
  allowed: readonly string[] | null,
  value: string | readonly string[] | boolean,
): string | undefined {
  const allowedText = `allowed: ${(allowed ?? []).join(", ")}`;
  switch (type) {
    case "multi_select": {
      if (!Array.isArray(value)) return "a multi_select value is a list";
      const unknown = value.find((item) => !(allowed ?? []).includes(item));
      return unknown === undefined
        ? undefined
        : `'${unknown}' is not an allowed value (${allowedText})`;
    }
    case "true_false":
      return typeof value === "boolean" || value === "true" || value === "false"
        ? undefined
        : "a true_false value is true or false";
    case "single_select":
      if (typeof value !== "string")
        return `a single_select value is one of its allowed values (${allowedText})`;
      return (allowed ?? []).includes(value)
        ? undefined
        : `'${value}' is not an allowed value (${allowedText})`;
    case "url":
      return typeof value === "string" && URL.canParse(value) ? undefined : "a url value is a URL";
    case "string":
      return typeof value === "string" ? undefined : "a string value is text";
  }
}

function printDefinitions(value: Definitions): PrintBlock[] {
  return [
    modeBlock("custom_property", value.mode),
    ...Object.entries(value.items ?? {}).map(([name]): PrintBlock => ({
      kind: "custom_property",
      name,
      path: ["items", name],
    })),
  ];
}

export const definitionsSetting = defineSetting({
  key: "custom_properties",
  schema: definitionsSchema.describe(
    "The organization's custom properties: mode (additive or authoritative) and items by name.",
  ),
  rules: definitionRules,
  defines: () => [{ id: "custom_properties", path: [], what: "the custom property list" }],
  print: printDefinitions,
});

const propertyValue = orNull(z.union([text, z.array(text), z.boolean()])).describe(
  "The repository's value: text for string, single_select and url, a list for multi_select, true or false for true_false; null unsets it.",
);

const valuesSchema = z
  .record(propertyName, propertyValue)
  .describe(
    "Custom property values of the repository by property name (names in any case; those not written are left alone). Entries that select by `where: {properties}` see values this plan sets only after apply.",
  );

export type PropertyValues = z.output<typeof valuesSchema>;
export type WrittenValue = PropertyValues[string];

export const valuesSetting = defineSetting({
  key: "properties",
  schema: valuesSchema,
  defines: (value) =>
    Object.keys(value).map((name) => ({
      id: `properties.${name.toLowerCase()}`,
      path: [name],
      what: `the value of custom property ${name}`,
    })),
  print: (value) =>
    Object.keys(value).map((name): PrintBlock => ({ kind: "custom_property", name, path: [name] })),
});
