import { parse, validate } from "graphql";
import { githubSchema } from "../../src/sandbox/github/graphql/schema.js";
import type { RecordedRequest } from "../../src/sandbox/index.js";

/**
 * The GraphQL queries a test's sandbox was sent, and what GitHub's published schema
 * (@octokit/graphql-schema) finds wrong with each: checked here with graphql-js on its own, not
 * only by the sandbox answering them.
 */

export interface SentQuery {
  query: string;
  variables: Record<string, unknown>;
}

export function sentQueries(requests: readonly RecordedRequest[]): SentQuery[] {
  return requests
    .filter((request) => request.method === "POST" && request.path === "/graphql")
    .map((request) => request.body as SentQuery);
}

export function schemaProblems(query: string): string[] {
  return validate(githubSchema(), parse(query)).map((error) => error.message);
}

/** Every name and value of a query is a variable: the query's text names no repository. */
export function interpolated(query: SentQuery, names: readonly string[]): string[] {
  return names.filter((name) => query.query.includes(`"${name}"`));
}
