import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * A small checker for the OpenAPI 3.0 subset GitHub's published description uses in the schemas we
 * compare against: $ref, type, nullable, properties, required, additionalProperties, items, enum,
 * allOf/anyOf/oneOf, and the uri and date-time formats.
 */

type Schema = Record<string, unknown>;

interface OpenApi {
  paths: Record<string, Record<string, { responses: Record<string, Schema> }>>;
  components: { schemas: Record<string, Schema> };
}

const require = createRequire(import.meta.url);
const file = require.resolve("@octokit/openapi/generated/api.github.com.json");
export const github = JSON.parse(readFileSync(file, "utf8")) as OpenApi;

/** Where the spec renames a GitHub member, the checks use the spec's name (see the README). */
function applySpecDifferences(schemas: Record<string, Schema>): Record<string, Schema> {
  const patched = { ...schemas };
  for (const name of ["simple-user", "nullable-simple-user"]) {
    const schema = schemas[name] as Schema & { required: string[] };
    patched[name] = {
      ...schema,
      required: schema.required.map((key) => (key === "gravatar_id" ? "avatar_ref_id" : key)),
    };
  }
  return patched;
}

export const specSchemas = applySpecDifferences(github.components.schemas);

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

export function check(
  schema: Schema,
  value: unknown,
  schemas: Record<string, Schema> = specSchemas,
  path = "$",
): string[] {
  if (typeof schema.$ref === "string") {
    const target = schemas[schema.$ref.replace("#/components/schemas/", "")];
    if (!target) return [`${path}: unresolved ${schema.$ref}`];
    return check(target, value, schemas, path);
  }
  if (value === null && schema.nullable === true) return [];
  if (Array.isArray(schema.allOf)) {
    return (schema.allOf as Schema[]).flatMap((part) => check(part, value, schemas, path));
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (!Array.isArray(options)) continue;
    const matching = (options as Schema[]).filter(
      (part) => check(part, value, schemas, path).length === 0,
    );
    if (matching.length === 0 || (key === "oneOf" && matching.length > 1)) {
      return [`${path}: matches ${matching.length} of the ${key} alternatives`];
    }
    return [];
  }
  const errors: string[] = [];
  const actual = typeOf(value);
  const expected = schema.type as string | undefined;
  if (expected !== undefined) {
    const fits = actual === expected || (expected === "number" && actual === "integer");
    if (!fits)
      return [`${path}: expected ${expected}${schema.nullable ? " or null" : ""}, got ${actual}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if (typeof value === "string" && schema.format === "uri" && !URL.canParse(value)) {
    errors.push(`${path}: '${value}' is not a URI`);
  }
  if (
    typeof value === "string" &&
    schema.format === "date-time" &&
    Number.isNaN(Date.parse(value))
  ) {
    errors.push(`${path}: '${value}' is not a date-time`);
  }
  if (actual === "array" && schema.items) {
    (value as unknown[]).forEach((item, index) => {
      errors.push(...check(schema.items as Schema, item, schemas, `${path}[${index}]`));
    });
  }
  if (actual === "object") {
    const record = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[]) {
      if (!(key in record)) errors.push(`${path}: missing required '${key}'`);
    }
    for (const [key, member] of Object.entries(record)) {
      const memberSchema = properties[key];
      if (memberSchema) errors.push(...check(memberSchema, member, schemas, `${path}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected '${key}'`);
      else if (typeof schema.additionalProperties === "object") {
        errors.push(
          ...check(schema.additionalProperties as Schema, member, schemas, `${path}.${key}`),
        );
      }
    }
  }
  return errors;
}

/** The JSON schema GitHub publishes for a successful response of an operation. */
export function responseSchema(path: string, method: string, status = "200"): Schema {
  const response = github.paths[path]?.[method]?.responses[status] as
    { content: Record<string, { schema: Schema }> } | undefined;
  const schema = response?.content["application/json"]?.schema;
  if (!schema) throw new Error(`no published schema for ${method.toUpperCase()} ${path} ${status}`);
  return schema;
}

/** The JSON schema GitHub publishes for an operation's request body. */
export function requestSchema(path: string, method: string): Schema {
  const operation = github.paths[path]?.[method] as
    { requestBody?: { content: Record<string, { schema: Schema }> } } | undefined;
  const schema = operation?.requestBody?.content["application/json"]?.schema;
  if (!schema) throw new Error(`no published request schema for ${method.toUpperCase()} ${path}`);
  return schema;
}

function resolved(schema: Schema, schemas: Record<string, Schema>): Schema {
  return typeof schema.$ref === "string"
    ? resolved(schemas[schema.$ref.replace("#/components/schemas/", "")] ?? {}, schemas)
    : schema;
}

/** The members a schema declares for `value`: its own, its allOf parts', and matching alternatives'. */
function declared(
  schema: Schema,
  value: unknown,
  schemas: Record<string, Schema>,
): Map<string, Schema> {
  const target = resolved(schema, schemas);
  const members = new Map(Object.entries((target.properties ?? {}) as Record<string, Schema>));
  const parts = [
    ...((target.allOf as Schema[] | undefined) ?? []),
    ...[
      ...((target.oneOf as Schema[] | undefined) ?? []),
      ...((target.anyOf as Schema[] | undefined) ?? []),
    ].filter((part) => check(part, value, schemas).length === 0),
  ];
  for (const part of parts) {
    for (const [key, member] of declared(part, value, schemas))
      if (!members.has(key)) members.set(key, member);
  }
  return members;
}

/**
 * Members of a request body that its schema does not declare, at any depth. GitHub's request schemas
 * leave `additionalProperties` open, so `check` alone would let a misspelt member through.
 */
export function undeclared(
  schema: Schema,
  value: unknown,
  schemas: Record<string, Schema> = specSchemas,
  path = "$",
): string[] {
  const target = resolved(schema, schemas);
  if (Array.isArray(value)) {
    const items = target.items as Schema | undefined;
    return items
      ? value.flatMap((item, index) => undeclared(items, item, schemas, `${path}[${index}]`))
      : [];
  }
  if (value === null || typeof value !== "object") return [];
  const members = declared(target, value, schemas);
  return Object.entries(value as Record<string, unknown>).flatMap(([key, member]) => {
    const memberSchema = members.get(key);
    if (memberSchema === undefined) return [`${path}: '${key}' is not in the schema`];
    return undeclared(memberSchema, member, schemas, `${path}.${key}`);
  });
}
