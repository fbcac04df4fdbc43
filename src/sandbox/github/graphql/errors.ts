import { GraphQLError, type GraphQLFormattedError } from "graphql";

/**
 * GraphQL errors as GitHub shapes them: `{type, path, locations, message}` in that order, with
 * `extensions` only where GitHub sends them. `type` is GitHub's own member, beside the spec's
 * (observed answers: `{"type":"NOT_FOUND","path":["repository"],"locations":[{"line":2,"column":3}],
 * "message":"Could not resolve to a Repository with the name 'acme/nope'."}`, cli/cli#436 and the
 * fixtures clients keep of it; FORBIDDEN with `"extensions":{"saml_failure":false}`,
 * fpicalausa/remove-stale-branches#49; EXCESSIVE_PAGINATION, MISSING_PAGINATION_BOUNDARIES and
 * MAX_NODE_LIMIT_EXCEEDED as quoted by their clients, see docs/service-decisions.md).
 */

export type GithubErrorType =
  | "NOT_FOUND"
  | "FORBIDDEN"
  | "MISSING_PAGINATION_BOUNDARIES"
  | "EXCESSIVE_PAGINATION"
  | "MAX_NODE_LIMIT_EXCEEDED"
  | "RATE_LIMITED"
  | "INVALID_CURSOR_ARGUMENTS";

/** Thrown by a resolver: graphql-js places it (path, locations) and the answer carries its type. */
export class TypedError extends GraphQLError {
  constructor(
    readonly githubType: GithubErrorType,
    message: string,
    readonly githubExtensions?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface GithubError {
  type?: GithubErrorType;
  path?: ReadonlyArray<string | number>;
  extensions?: Record<string, unknown>;
  locations?: ReadonlyArray<{ line: number; column: number }>;
  message: string;
}

/** A graphql-js error in GitHub's shape; an untyped one (a validation error) keeps no `type`. */
export function githubError(error: GraphQLError): GithubError {
  const original = error.originalError;
  const typed =
    original instanceof TypedError ? original : error instanceof TypedError ? error : undefined;
  const formatted: GraphQLFormattedError = error.toJSON();
  return {
    ...(typed ? { type: typed.githubType } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
    ...(typed?.githubExtensions ? { extensions: typed.githubExtensions } : {}),
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    message: githubWording(formatted.message),
  };
}

/**
 * GitHub's words for the validation error clients meet most, an unknown field ("Field 'bioHtml'
 * doesn't exist on type 'User'", octokit/graphql.js's error tests); graphql-js's own words for the
 * others, a documented difference (docs/sandbox.md, "Where the sandbox follows the spec rather than GitHub").
 */
function githubWording(message: string): string {
  const unknown = /^Cannot query field "([^"]+)" on type "([^"]+)"\./.exec(message);
  return unknown ? `Field '${unknown[1]}' doesn't exist on type '${unknown[2]}'` : message;
}

export function notFoundRepository(owner: string, name: string): TypedError {
  return new TypedError(
    "NOT_FOUND",
    `Could not resolve to a Repository with the name '${owner}/${name}'.`,
  );
}

export function forbidden(message: string): TypedError {
  return new TypedError("FORBIDDEN", message, { saml_failure: false });
}
