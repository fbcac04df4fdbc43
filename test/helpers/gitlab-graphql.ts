import { parse, validate } from "graphql";
import { scoreQuery } from "../../src/sandbox/gitlab/graphql/complexity.js";
import { gitlabSchema } from "../../src/sandbox/gitlab/graphql/schema.js";
import type { RecordedRequest } from "../../src/sandbox/index.js";
import type { SentQuery } from "./graphql.js";

/**
 * The queries a test's sandbox was sent to GitLab's GraphQL API, what the vendored subset of
 * GitLab's schema finds wrong with each (graphql-js's `validate`, on its own), and the complexity
 * GitLab would score each (the sandbox's reading of base_field.rb).
 */
export function sentGitlabQueries(requests: readonly RecordedRequest[]): SentQuery[] {
  return requests
    .filter((request) => request.method === "POST" && request.path === "/api/graphql")
    .map((request) => request.body as SentQuery);
}

export function gitlabSchemaProblems(query: string): string[] {
  return validate(gitlabSchema(), parse(query)).map((error) => error.message);
}

export function gitlabComplexity(query: SentQuery): number {
  return scoreQuery(gitlabSchema(), parse(query.query), query.variables).complexity;
}
