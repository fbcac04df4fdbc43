import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  jsonType,
  type Location,
  type Schema,
  type Violation,
  violations,
} from "../../src/sandbox/openapi-check.js";

/**
 * GitHub's published OpenAPI description and the checker of src/sandbox/openapi-check.ts, wording
 * its findings for the contract tests (`$.a.b[0]: …`).
 */

interface OpenApi {
  paths: Record<string, Record<string, { responses: Record<string, Schema> }>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Schema> };
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

/** The JSON schema GitHub publishes for a response of an operation (a success by default). */
export function responseSchema(path: string, method: string, status = "200"): Schema {
  let response = github.paths[path]?.[method]?.responses[status];
  if (typeof response?.$ref === "string") {
    response = github.components.responses[response.$ref.replace("#/components/responses/", "")];
  }
  const content = (response as { content?: Record<string, { schema: Schema }> } | undefined)
    ?.content;
  const schema = content?.["application/json"]?.schema;
  if (!schema) throw new Error(`no published schema for ${method.toUpperCase()} ${path} ${status}`);
  return schema;
}
