import { HttpError } from "../http.js";
import type { Organization, Repository } from "../world/records.js";
import { type PropertyDefinition, type PropertyValue, valuesOf, definitionsOf } from "./records.js";

/**
 * Custom properties of an organization's repositories: the rules a definition and a value must
 * follow, and the values a repository has. The seed and the write endpoints check with the same
 * functions, so a seeded world is one the API could have built.
 */

/** "Names: a-z, A-Z, 0-9, _, -, $, #" and at most 75 characters (GitHub docs, custom properties). */
export const PROPERTY_NAME = /^[A-Za-z0-9_$#-]{1,75}$/;
/** "Values: All printable ASCII characters except `"`" (GitHub docs, custom properties). */
const PROPERTY_TEXT = /^[\x20-\x21\x23-\x7e]*$/;
/** "The property can have up to 200 allowed values" (the spec, allowed_values). */
const MAX_ALLOWED_VALUES = 200;
/** "An organization can have up to 100 property definitions" (GitHub docs, custom properties). */
export const MAX_DEFINITIONS = 100;

/** What is wrong with a definition, one message per problem; empty when it is valid. */
export function definitionProblems(definition: PropertyDefinition): string[] {
  const problems: string[] = [];
  const name = definition.property_name;
  if (!PROPERTY_NAME.test(name)) problems.push(`property_name '${name}' is not a valid name`);
  const selects =
    definition.value_type === "single_select" || definition.value_type === "multi_select";
  const allowed = definition.allowed_values;
  if (selects && (allowed === null || allowed.length === 0)) {
    problems.push(`allowed_values are required for a ${definition.value_type} property`);
  }
  if (!selects && allowed !== null) {
    problems.push(`allowed_values are only for single_select and multi_select properties`);
  }
  if (allowed !== null && allowed.length > MAX_ALLOWED_VALUES) {
    problems.push(`allowed_values may hold at most ${MAX_ALLOWED_VALUES} values`);
  }
  for (const value of allowed ?? []) {
    if (!PROPERTY_TEXT.test(value))
      problems.push(`allowed value '${value}' has a " or a control character`);
  }
  if (definition.required && definition.default_value === null) {
    problems.push("a required property needs a default_value");
  }
  if (definition.default_value !== null) {
    const problem = valueProblem(definition, definition.default_value);
    if (problem !== undefined) problems.push(`default_value: ${problem}`);
  }
  return problems;
}

/** Why `value` cannot be a value of the property, or undefined when it can. */
export function valueProblem(
  definition: PropertyDefinition,
  value: PropertyValue,
): string | undefined {
  const name = definition.property_name;
  const allowed = definition.allowed_values ?? [];
  if (definition.value_type === "multi_select") {
    if (!Array.isArray(value)) return `${name} is a multi_select property: its value is a list`;
    const unknown = value.find((item) => !allowed.includes(item));
    return unknown === undefined ? undefined : `'${unknown}' is not an allowed value of ${name}`;
  }
  if (Array.isArray(value))
    return `${name} is a ${definition.value_type} property: its value is a string`;
  if (!PROPERTY_TEXT.test(value) || value === "") {
    return `the value of ${name} must be printable ASCII without "`;
  }
  switch (definition.value_type) {
    case "single_select":
      return allowed.includes(value) ? undefined : `'${value}' is not an allowed value of ${name}`;
    case "true_false":
      return value === "true" || value === "false" ? undefined : `${name} is true or false`;
    case "url":
      return URL.canParse(value) ? undefined : `the value of ${name} must be a URL`;
    case "string":
      return undefined;
  }
}

/**
 * The values a repository has, in definition order: its explicit values, and the default of a
 * required property it has no value for ("Repositories that don't have an explicit value for this
 * property will inherit the default value": GitHub docs, custom properties). Properties without a
 * value are left out, as in the spec's example of `GET /orgs/{org}/properties/values`.
 */
export function repositoryValues(
  org: Organization | null,
  repo: Repository,
): Array<{ property_name: string; value: PropertyValue }> {
  if (org === null) return [];
  const values: Array<{ property_name: string; value: PropertyValue }> = [];
  for (const [key, definition] of definitionsOf(org)) {
    const value =
      valuesOf(repo).get(key) ?? (definition.required ? definition.default_value : null);
    if (value !== null && value !== undefined) {
      values.push({ property_name: definition.property_name, value });
    }
  }
  return values;
}

/**
 * Sets (or, with null, unsets) values on a repository after checking every one of them: either all
 * are applied or none. Returns the problems, one line each.
 */
export function setValues(
  org: Organization,
  repos: readonly Repository[],
  properties: ReadonlyArray<{ property_name: string; value: PropertyValue | null }>,
): string[] {
  const problems: string[] = [];
  for (const { property_name: name, value } of properties) {
    const definition = definitionsOf(org).get(name.toLowerCase());
    if (definition === undefined) {
      problems.push(`property '${name}' is not defined for ${org.account.login}`);
      continue;
    }
    if (value === null) continue;
    const problem = valueProblem(definition, value);
    if (problem !== undefined) problems.push(problem);
  }
  if (problems.length > 0) return problems;
  for (const repo of repos) {
    for (const { property_name: name, value } of properties) {
      if (value === null) valuesOf(repo).delete(name.toLowerCase());
      else valuesOf(repo).set(name.toLowerCase(), Array.isArray(value) ? [...value] : value);
    }
  }
  return [];
}

/**
 * The values `POST /orgs/{org}/repos` gives a repository it creates (`custom_properties`: "The keys
 * are the custom property names, and the values are the corresponding custom property values", the
 * spec), checked as a PATCH of values is; a required property whose definition requires explicit
 * values and that the request does not give refuses the creation (GitHub answers 422,
 * integrations/terraform-provider-github#3304; the words are the sandbox's). Nothing is created then.
 */
export function creationValues(repo: Repository, given: unknown): void {
  const org = repo.org;
  if (org === null) return;
  const refuse = (message: string) =>
    new HttpError({
      status: 422,
      body: {
        message: "Repository creation failed.",
        errors: [{ resource: "Repository", code: "custom", field: "custom_properties", message }],
        documentation_url:
          "https://docs.github.com/rest/repos/repos#create-an-organization-repository",
      },
    });
  const values = given === undefined || given === null ? {} : (given as Record<string, unknown>);
  if (typeof values !== "object" || Array.isArray(values)) {
    throw refuse("custom_properties must be an object of property names and values");
  }
  const named = new Set(Object.keys(values).map((name) => name.toLowerCase()));
  for (const definition of definitionsOf(org).values()) {
    const key = definition.property_name.toLowerCase();
    if (definition.required && definition.require_explicit_values && !named.has(key)) {
      throw refuse(`required property ${definition.property_name} must have a value`);
    }
  }
  const properties: Array<{ property_name: string; value: PropertyValue | null }> = [];
  for (const [property_name, value] of Object.entries(values)) {
    const shaped =
      value === null ||
      typeof value === "string" ||
      (Array.isArray(value) && value.every((item) => typeof item === "string"));
    if (!shaped)
      throw refuse(`the value of ${property_name} must be a string or a list of strings`);
    properties.push({ property_name, value: value as PropertyValue | null });
  }
  const problems = setValues(org, [repo], properties);
  if (problems.length > 0) throw refuse(problems.join("; "));
}
