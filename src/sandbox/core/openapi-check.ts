/**
 * A checker for the OpenAPI 3.0 subset GitHub's published description (`@octokit/openapi`) uses:
 * $ref, type, nullable, properties, required, additionalProperties, items, enum, allOf/anyOf/oneOf,
 * and the uri and date-time formats. Every keyword of a schema is checked, as JSON Schema validators
 * do (GitHub's own among them). It reports what is wrong as data: the sandbox words request-body
 * violations as GitHub does (github/request-rules.ts), the contract tests word response violations their
 * own way.
 */

export type Schema = { [keyword: string]: unknown };

/** Where a value sits in the checked document: member names and array indices. */
export type Location = ReadonlyArray<string | number>;

export type Violation =
  | { kind: "type"; at: Location; expected: string; nullable: boolean; value: unknown }
  | { kind: "enum"; at: Location; allowed: unknown[]; value: unknown }
  | { kind: "format"; at: Location; format: "uri" | "date-time"; value: string }
  | { kind: "required"; at: Location; key: string }
  | { kind: "unexpected"; at: Location; key: string }
  | { kind: "alternatives"; at: Location; keyword: "anyOf" | "oneOf"; matching: number }
  | { kind: "unresolved"; at: Location; ref: string };

export interface CheckOptions {
  /** The `components.schemas` that `$ref`s point into. */
  schemas?: Record<string, Schema>;
  /** Check the uri and date-time formats (default true). */
  formats?: boolean;
}

/** The JSON type of a value, `integer` for whole numbers. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function has(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

export function violations(
  schema: Schema,
  value: unknown,
  options: CheckOptions = {},
  at: Location = [],
): Violation[] {
  if (typeof schema.$ref === "string") {
    const target = options.schemas?.[schema.$ref.replace("#/components/schemas/", "")];
    if (!target) return [{ kind: "unresolved", at, ref: schema.$ref }];
    return violations(target, value, options, at);
  }
  if (value === null && schema.nullable === true) return [];
  const found: Violation[] = [];
  for (const part of (schema.allOf ?? []) as Schema[]) {
    found.push(...violations(part, value, options, at));
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const alternatives = schema[keyword];
    if (!Array.isArray(alternatives)) continue;
    const matching = (alternatives as Schema[]).filter(
      (part) => violations(part, value, options, at).length === 0,
    ).length;
    if (matching === 0 || (keyword === "oneOf" && matching > 1)) {
      found.push({ kind: "alternatives", at, keyword, matching });
    }
  }
  const actual = jsonType(value);
  const expected = schema.type as string | undefined;
  if (expected !== undefined && actual !== expected) {
    if (!(expected === "number" && actual === "integer")) {
      return [...found, { kind: "type", at, expected, nullable: schema.nullable === true, value }];
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    found.push({ kind: "enum", at, allowed: schema.enum, value });
  }
  if (typeof value === "string" && options.formats !== false) {
    if (schema.format === "uri" && !URL.canParse(value)) {
      found.push({ kind: "format", at, format: "uri", value });
    }
    if (schema.format === "date-time" && Number.isNaN(Date.parse(value))) {
      found.push({ kind: "format", at, format: "date-time", value });
    }
  }
  if (actual === "array" && schema.items) {
    (value as unknown[]).forEach((item, index) => {
      found.push(...violations(schema.items as Schema, item, options, [...at, index]));
    });
  }
  if (actual === "object") {
    const record = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [key, member] of Object.entries(record)) {
      const memberSchema = has(properties, key) ? properties[key] : undefined;
      if (memberSchema) found.push(...violations(memberSchema, member, options, [...at, key]));
      else if (schema.additionalProperties === false) found.push({ kind: "unexpected", at, key });
      else if (typeof schema.additionalProperties === "object") {
        found.push(
          ...violations(schema.additionalProperties as Schema, member, options, [...at, key]),
        );
      }
    }
    for (const key of (schema.required ?? []) as string[]) {
      if (!has(record, key)) found.push({ kind: "required", at, key });
    }
  }
  return found;
}
