import generated from "./request-schemas.json" with { type: "json" };
import type { RequestRules } from "../core/family.js";
import type { FieldError, Reply } from "../core/http-support.js";
import { type Location, type Schema, type Violation, violations } from "../core/openapi-check.js";

/**
 * Request bodies checked as GitHub checks them, where the service interface is silent: against the
 * request schema GitHub publishes for the operation (request-schemas.json, generated from
 * `@octokit/openapi` by scripts/generate-request-schemas.js), with the spec's own fields laid over it
 * where the spec defines the operation (SPEC_EXCEPTIONS, the one list of them).
 */

/** GitHub's documentation, which error bodies without an operation of their own point at. */
export const DOCS = "https://docs.github.com/rest";

interface Operation {
  documentation_url: string;
  schema: Schema;
}

function withProperties(schema: Schema, added: Record<string, Schema>): Schema {
  return { ...schema, properties: { ...(schema.properties as object), ...added } };
}

/**
 * Where the spec defines an operation, its fields win over GitHub's published schema. Each entry
 * rewrites GitHub's schema of one operation and says why.
 */
const SPEC_EXCEPTIONS: Record<string, (schema: Schema) => Schema> = {
  // Spec endpoint 2 lists `authorization_header` and `branch_filter` in the hook PATCH body; GitHub's
  // schema has neither. Its body is open, so they would pass unchecked: they are typed here instead.
  "PATCH /repos/{owner}/{repo}/hooks/{hook_id}": (schema) =>
    withProperties(schema, {
      authorization_header: { type: "string" },
      branch_filter: { type: "string" },
    }),
  // GitHub's schema (and the spec's table) mark `required_status_checks.contexts` required, but it
  // is closing down in favour of `checks`, and GitHub's live API takes exactly one of the two:
  // `checks` alone is accepted; both are refused ("More than one subschema in "oneOf" matched.",
  // ossf/allstar#155, google/go-github#2276), and so is neither (google/go-github#2976).
  "PUT /repos/{owner}/{repo}/branches/{branch}/protection": (schema) => {
    const properties = schema.properties as Record<string, Schema>;
    return withProperties(schema, {
      required_status_checks: {
        ...properties.required_status_checks,
        required: ["strict"],
        oneOf: [{ required: ["contexts"] }, { required: ["checks"] }],
      },
    });
  },
};

/**
 * The writes the spec defines on repository paths (endpoints 1 and 2): their 422s keep the spec's
 * Validation Error Simple body.
 */
const SPEC_OPERATIONS: ReadonlySet<string> = new Set([
  "PUT /repos/{owner}/{repo}/branches/{branch}/protection",
  "PATCH /repos/{owner}/{repo}/hooks/{hook_id}",
]);

const OPERATIONS: ReadonlyMap<string, Operation> = new Map(
  Object.entries(generated.operations as Record<string, Operation>).map(([key, operation]) => {
    const exception = SPEC_EXCEPTIONS[key];
    return [key, exception ? { ...operation, schema: exception(operation.schema) } : operation];
  }),
);

/**
 * Operations whose endpoint answers a body outside its schema in words of its own, which their
 * routes give: GitHub's rulesets API refuses with `Validation Failed` and errors such as
 * `Invalid property /conditions: data matches no possible input` (docs/service-decisions.md,
 * rulesets), not the `Invalid request.` of other endpoints. Their schemas still say what a client
 * may send (`requestViolations`).
 */
const OWN_WORDS: ReadonlySet<string> = new Set([
  "POST /repos/{owner}/{repo}/rulesets",
  "PUT /repos/{owner}/{repo}/rulesets/{ruleset_id}",
  "POST /orgs/{org}/rulesets",
  "PUT /orgs/{org}/rulesets/{ruleset_id}",
]);

/** Whether the sandbox refuses a body outside the operation's schema before its route runs. */
export function refusedBeforeRoute(operation: string): boolean {
  return !OWN_WORDS.has(operation);
}

/** The operation's page in GitHub's documentation, which its error bodies point at. */
export function documentationUrl(operation: string | undefined): string {
  return (operation !== undefined && OPERATIONS.get(operation)?.documentation_url) || DOCS;
}

/** The operations whose bodies are checked, `METHOD /path` as GitHub names the path. */
export function checkedOperations(): string[] {
  return [...OPERATIONS.keys()];
}

/** Ruby's `inspect`, which GitHub's messages use to show the offending value. */
function inspect(value: unknown): string {
  if (value === null) return "nil";
  if (Array.isArray(value)) return `[${value.map(inspect).join(", ")}]`;
  if (typeof value === "object") {
    const members = Object.entries(value as object).map(
      ([key, member]) => `${JSON.stringify(key)}=>${inspect(member)}`,
    );
    return `{${members.join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** GitHub names where a value sits by its schema: `properties/NAME`, or `items` in an array. */
function pointer(at: Location): string {
  const last = at[at.length - 1];
  return typeof last === "number" ? "items" : `properties/${last}`;
}

function typeName(type: string): string {
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

function keys(names: string[]): string {
  return `"${[...names].sort().join('", "')}"`;
}

/**
 * GitHub's wording for schema violations: its validator's messages (brandur/json_schema), as GitHub's
 * answers show them — `"per_page" is not a permitted key.` (emilyriederer/projmgr#43), `"sha" wasn't
 * supplied.` (octokit/octokit.rb#992), `For 'properties/teams', nil is not an array.` and
 * `No subschema in "anyOf" matched.` (google/go-github#2976, ossf/allstar#155).
 */
function wording(found: Violation[]): string[] {
  const lines: string[] = [];
  const grouped = new Map<string, { kind: "required" | "unexpected"; names: string[] }>();
  for (const violation of found) {
    switch (violation.kind) {
      case "required":
      case "unexpected": {
        const key = `${violation.kind} ${JSON.stringify(violation.at)}`;
        const group = grouped.get(key);
        if (group) group.names.push(violation.key);
        else {
          grouped.set(key, { kind: violation.kind, names: [violation.key] });
          lines.push(key);
        }
        break;
      }
      case "type": {
        const expected = `${typeName(violation.expected)}${violation.nullable ? " or null" : ""}`;
        lines.push(
          `For '${pointer(violation.at)}', ${inspect(violation.value)} is not ${expected}.`,
        );
        break;
      }
      case "enum":
        lines.push(
          `For '${pointer(violation.at)}', ${inspect(violation.value)} is not a member of ${inspect(violation.allowed)}.`,
        );
        break;
      case "format":
        lines.push(
          `For '${pointer(violation.at)}', ${inspect(violation.value)} is not a valid ${violation.format}.`,
        );
        break;
      case "alternatives":
        lines.push(
          violation.matching === 0
            ? `No subschema in "${violation.keyword}" matched.`
            : `More than one subschema in "${violation.keyword}" matched.`,
        );
        break;
      case "unresolved":
        lines.push(`Unresolved ${violation.ref}.`);
        break;
    }
  }
  return lines.map((line) => {
    const group = grouped.get(line);
    if (!group) return line;
    const one = group.names.length === 1;
    return group.kind === "required"
      ? `${keys(group.names)} ${one ? "wasn't" : "weren't"} supplied.`
      : `${keys(group.names)} ${one ? "is not a permitted key" : "are not permitted keys"}.`;
  });
}

/**
 * What is wrong with a body for GitHub, one line each, in GitHub's words; [] when nothing is or the
 * operation is not one whose body is checked. Formats are not checked: GitHub's validator parses
 * `uri` values with Ruby's lenient URI.parse, and the handlers check URLs themselves.
 */
export function requestViolations(operation: string, body: unknown): string[] {
  const found = OPERATIONS.get(operation);
  if (!found) return [];
  // A request without a body is read as `{}`, as the server reads it (an App's token request).
  return wording(violations(found.schema, body ?? {}, { formats: false }));
}

/**
 * GitHub's 422 for a body its schema refuses: `{message: "Invalid request.\n\n" + the lines,
 * documentation_url}` with the operation's documentation URL (google/go-github#2976 quotes one).
 * Where the spec defines the operation, the body keeps the spec's Validation Error Simple shape:
 * the lines are also its `errors`.
 */
export function schemaRefusal(operation: string, lines: string[]): Reply {
  const message = `Invalid request.\n\n${lines.join("\n")}`;
  const documentation_url = documentationUrl(operation);
  return {
    status: 422,
    body: SPEC_OPERATIONS.has(operation)
      ? { message, documentation_url, errors: lines }
      : { message, documentation_url },
  };
}

/**
 * The 422 for a rule a schema cannot say (RequestContext.invalid): Validation Error Simple where the
 * spec defines the operation or the route names none; GitHub's published Validation Error, errors as
 * `{resource, code: "custom", message}`, where only GitHub defines it.
 */
export function ruleRefusal(
  operation: string | undefined,
  errors: string[],
  resource: string,
): Reply {
  const githubOnly = operation !== undefined && !SPEC_OPERATIONS.has(operation);
  return {
    status: 422,
    body: {
      message: "Validation Failed",
      documentation_url: documentationUrl(operation),
      errors: githubOnly
        ? errors.map((message) => ({ resource, code: "custom", message }))
        : errors,
    },
  };
}

/** GitHub's Validation Error for rules about named fields (RequestContext.refused). */
export function fieldRefusal(operation: string | undefined, errors: FieldError[]): Reply {
  return {
    status: 422,
    body: { message: "Validation Failed", errors, documentation_url: documentationUrl(operation) },
  };
}

/** The request rules of a family whose operations are GitHub's (core/family.ts). */
export const githubRequestRules: RequestRules = {
  checksBeforeRoute: refusedBeforeRoute,
  violations: requestViolations,
  schemaRefusal,
  ruleRefusal,
  fieldRefusal,
};
