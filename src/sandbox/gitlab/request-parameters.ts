import data from "./request-parameters.json" with { type: "json" };

/**
 * Request parameters checked as GitLab's Grape API checks them, against GitLab's published
 * description of each operation (request-parameters.json: the OpenAPI v2 description
 * `doc/api/openapi/openapi_v2.yaml` where it covers the operation, the API documentation's
 * parameter table where it does not; each operation names its source).
 *
 * What Grape does, and so what this does:
 * - Parameters come from the path, the query string and the body alike (Grape merges them).
 * - Undeclared parameters are ignored: GitLab's endpoints read `declared_params`, and Grape's
 *   `declared` "will filter out the params that have been passed, but are not allowed" (Grape's
 *   README, "Declared"). Nothing is refused for an unknown name.
 * - A required parameter that is absent: `<name> is missing`; a value that does not coerce to the
 *   declared type (or a date that does not parse): `<name> is invalid`; one outside the declared
 *   values: `<name> does not have a valid value` (grape/lib/grape/locale/en.yml: `presence`,
 *   `coerce`, `values`; `format: '%{attributes} %{message}'`). At most one message a parameter.
 * - All messages of a request in one 400, joined with ", " (Grape's ValidationErrors#message),
 *   as `{"error": "..."}`: lib/api/api.rb `rescue_from Grape::Exceptions::Base do |e| error!
 *   e.message, e.status, e.headers end`.
 */

export interface Parameter {
  name: string;
  in: "path" | "query" | "body";
  /** OpenAPI's types, or the documentation's `integer/string` (either). */
  type: "string" | "integer" | "boolean" | "array" | "integer/string";
  format?: string;
  items?: {
    type: "string" | "integer" | "object";
    format?: string;
    /** An object item's properties (`allowed_to_push[][access_level]` …), each checked alike. */
    properties?: Record<string, Omit<Parameter, "name" | "in" | "items">>;
  };
  enum?: Array<string | number>;
  required?: boolean;
}

export interface OperationParameters {
  source: "openapi" | "docs";
  operationId?: string;
  page?: string;
  section?: string;
  note?: string;
  parameters: Parameter[];
}

const OPERATIONS: ReadonlyMap<string, OperationParameters> = new Map(
  Object.entries(data.operations as Record<string, OperationParameters>),
);

/** The operation's parameters as GitLab describes them; undefined when the data has none. */
export function operationParameters(operation: string): OperationParameters | undefined {
  return OPERATIONS.get(operation);
}

/** Every operation the data describes, `METHOD /api/v4/...`. */
export function describedOperations(): string[] {
  return [...OPERATIONS.keys()];
}

// Grape's Boolean coercion (dry-types `Params::Bool`).
export const TRUE = new Set(["1", "on", "t", "true", "y", "yes"]);
export const FALSE = new Set(["0", "off", "f", "false", "n", "no"]);

const NOT_VALID = Symbol("not valid");
type Coerced = string | number | boolean | null | typeof NOT_VALID;

function coerceScalar(type: string, value: unknown, format?: string): Coerced {
  if (value === null) return null;
  // Grape's Params types read an empty query value of a non-string type as nil.
  if (value === "" && type !== "string") return null;
  switch (type) {
    case "integer":
      if (typeof value === "number") return Number.isInteger(value) ? value : NOT_VALID;
      return typeof value === "string" && /^[+-]?\d+$/.test(value.trim())
        ? Number(value)
        : NOT_VALID;
    case "boolean":
      if (typeof value === "boolean") return value;
      if (typeof value !== "string") return NOT_VALID;
      if (TRUE.has(value.toLowerCase())) return true;
      if (FALSE.has(value.toLowerCase())) return false;
      return NOT_VALID;
    case "integer/string":
      return typeof value === "string" || (typeof value === "number" && Number.isInteger(value))
        ? value
        : NOT_VALID;
    case "string": {
      if (typeof value === "number") return String(value);
      if (typeof value !== "string") return NOT_VALID;
      if (format === "date-time" && value !== "" && Number.isNaN(Date.parse(value))) {
        return NOT_VALID;
      }
      if (format === "date" && value !== "") {
        const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
        if (!day || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return NOT_VALID;
      }
      return value;
    }
    default:
      return NOT_VALID;
  }
}

/** A request's parameters: path, then query, then body (the body wins, as in the handlers). */
export interface RequestParameters {
  path: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

function lookup(
  parameter: Parameter,
  request: RequestParameters,
): { found: false } | { found: true; value: unknown } {
  const { name } = parameter;
  if (parameter.in === "path") {
    const value = request.path[name];
    return value === undefined ? { found: false } : { found: true, value };
  }
  const body =
    request.body !== null && typeof request.body === "object" && !Array.isArray(request.body)
      ? (request.body as Record<string, unknown>)
      : {};
  if (Object.prototype.hasOwnProperty.call(body, name)) return { found: true, value: body[name] };
  // Rack reads `name[]=a&name[]=b` as an array; GitLab's list parameters also take "a,b".
  const listed = request.query.getAll(`${name}[]`);
  if (parameter.type === "array" && listed.length > 0) return { found: true, value: listed };
  if (request.query.has(name)) {
    const value = request.query.get(name) as string;
    return { found: true, value: parameter.type === "array" ? value.split(",") : value };
  }
  return { found: false };
}

/**
 * Grape's message for an array of hashes: an item that is not a hash makes the array invalid;
 * a member of an item is named `name[index][member]`, as Grape names nested parameters.
 */
function objectItemsProblem(
  name: string,
  values: unknown[],
  items: NonNullable<Parameter["items"]>,
): string | undefined {
  for (const [index, item] of values.entries()) {
    if (item === null || typeof item !== "object" || Array.isArray(item))
      return `${name} is invalid`;
    for (const [member, declared] of Object.entries(items.properties ?? {})) {
      const value = (item as Record<string, unknown>)[member];
      if (value === undefined) continue;
      const coerced = coerceScalar(declared.type, value, declared.format);
      const label = `${name}[${index}][${member}]`;
      if (coerced === NOT_VALID) return `${label} is invalid`;
      if (
        coerced !== null &&
        declared.enum !== undefined &&
        !declared.enum.includes(coerced as never)
      )
        return `${label} does not have a valid value`;
    }
  }
  return undefined;
}

/** Grape's message for one parameter, or undefined when it passes. */
function problem(parameter: Parameter, request: RequestParameters): string | undefined {
  const found = lookup(parameter, request);
  if (!found.found) return parameter.required ? `${parameter.name} is missing` : undefined;
  const invalid = `${parameter.name} is invalid`;
  if (parameter.type === "array") {
    if (found.value === null) return undefined;
    if (!Array.isArray(found.value)) return invalid;
    const items = parameter.items ?? { type: "string" };
    if (items.type === "object") return objectItemsProblem(parameter.name, found.value, items);
    return found.value.some((item) => coerceScalar(items.type, item, items.format) === NOT_VALID)
      ? invalid
      : undefined;
  }
  const value = coerceScalar(parameter.type, found.value, parameter.format);
  if (value === NOT_VALID) return invalid;
  if (value !== null && parameter.enum !== undefined && !parameter.enum.includes(value as never)) {
    return `${parameter.name} does not have a valid value`;
  }
  return undefined;
}

/**
 * What GitLab refuses in a request to `operation`, one message a parameter in the data's order, in
 * Grape's words; [] when nothing is, or when the data does not describe the operation.
 */
export function parameterViolations(operation: string, request: RequestParameters): string[] {
  const described = OPERATIONS.get(operation);
  if (described === undefined) return [];
  return described.parameters.flatMap((parameter) => problem(parameter, request) ?? []);
}

/** The path parameters of a request path under an operation's template (`{id}` ↔ a segment). */
export function pathParameters(operation: string, pathname: string): Record<string, string> {
  const template = operation.slice(operation.indexOf(" ") + 1).split("/");
  const segments = pathname.split("/");
  const found: Record<string, string> = {};
  template.forEach((part, index) => {
    const name = /^\{(.+)\}$/.exec(part)?.[1];
    const segment = segments[index];
    if (name === undefined || segment === undefined) return;
    try {
      found[name] = decodeURIComponent(segment);
    } catch {
      found[name] = segment;
    }
  });
  return found;
}

/**
 * What GitLab refuses in a recorded request (`RecordedRequest`: its operation, path with query, and
 * body as the sandbox read it), for tests that check every request a client sent.
 */
export function gitlabRequestViolations(operation: string, path: string, body: unknown): string[] {
  const url = new URL(path, "http://sandbox");
  return parameterViolations(operation, {
    path: pathParameters(operation, url.pathname),
    query: url.searchParams,
    body: typeof body === "string" ? undefined : body,
  });
}

/** GitLab's 400 for a request its parameters refuse. */
export function parameterRefusal(messages: string[]) {
  return { status: 400, body: { error: messages.join(", ") } };
}
