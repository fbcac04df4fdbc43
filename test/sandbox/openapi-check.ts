import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  jsonType,
  type Location,
  type Schema,
  type Violation,
  violations,
} from "../../src/sandbox/core/openapi-check.js";

/**
 * GitHub's published OpenAPI description and the checker of src/sandbox/core/openapi-check.ts, wording
 * its findings for the contract tests (`$.a.b[0]: …`).
 */

export interface OpenApi {
  paths: Record<string, Record<string, { responses: Record<string, Schema> }>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Schema> };
}

const require = createRequire(import.meta.url);
const load = (name: string) =>
  JSON.parse(
    readFileSync(require.resolve(`@octokit/openapi/generated/${name}.json`), "utf8"),
  ) as OpenApi;
export const github = load("api.github.com");
/**
 * GitHub Enterprise Cloud's description: the operations only organizations on Enterprise have
 * (custom repository roles), which api.github.com's leaves out.
 */
export const enterprise = load("ghec");

/**
 * Where the spec renames a GitHub member, the checks use the spec's name (see docs/sandbox.md): users
 * carry `avatar_ref_id` instead of `gravatar_id`, in every shape a user is (a collaborator, a team
 * member …).
 */
function applySpecDifferences(schemas: Record<string, Schema>): Record<string, Schema> {
  const patched = { ...schemas };
  for (const [name, schema] of Object.entries(schemas)) {
    const required = schema.required as string[] | undefined;
    if (!required?.includes("gravatar_id")) continue;
    patched[name] = {
      ...schema,
      required: required.map((key) => (key === "gravatar_id" ? "avatar_ref_id" : key)),
    };
  }
  return patched;
}

export const specSchemas = applySpecDifferences(github.components.schemas);
export const enterpriseSchemas = applySpecDifferences(enterprise.components.schemas);

function where(at: Location): string {
  return `$${at.map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`)).join("")}`;
}

function describe(violation: Violation): string {
  const path = where(violation.at);
  switch (violation.kind) {
    case "unresolved":
      return `${path}: unresolved ${violation.ref}`;
    case "alternatives":
      return `${path}: matches ${violation.matching} of the ${violation.keyword} alternatives`;
    case "type":
      return `${path}: expected ${violation.expected}${violation.nullable ? " or null" : ""}, got ${jsonType(violation.value)}`;
    case "enum":
      return `${path}: ${JSON.stringify(violation.value)} is not one of ${JSON.stringify(violation.allowed)}`;
    case "format":
      return `${path}: '${violation.value}' is not a ${violation.format === "uri" ? "URI" : "date-time"}`;
    case "required":
      return `${path}: missing required '${violation.key}'`;
    case "unexpected":
      return `${path}: unexpected '${violation.key}'`;
  }
}

export function check(
  schema: Schema,
  value: unknown,
  schemas: Record<string, Schema> = specSchemas,
): string[] {
  return violations(schema, value, { schemas }).map(describe);
}

/**
 * The JSON schema GitHub publishes for a response of an operation (a success by default), from
 * `description` (api.github.com's unless told).
 */
export function responseSchema(
  path: string,
  method: string,
  status = "200",
  description: OpenApi = github,
): Schema {
  let response = description.paths[path]?.[method]?.responses[status];
  if (typeof response?.$ref === "string") {
    response =
      description.components.responses[response.$ref.replace("#/components/responses/", "")];
  }
  const content = (response as { content?: Record<string, { schema: Schema }> } | undefined)
    ?.content;
  const schema = content?.["application/json"]?.schema;
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
