import { type DocumentNode, execute, type GraphQLError, parse, validate } from "graphql";
import type { RequestContext } from "../http.js";
import { LIMITS, scoreQuery } from "./complexity.js";
import { queryRoot } from "./resolvers.js";
import { gitlabSchema } from "./schema.js";

/**
 * One `POST /api/graphql`, as GitLab answers it (app/controllers/graphql_controller.rb and
 * doc/api/graphql/index.md, "Limits"): a query past 10,000 characters, one that does not parse or
 * validate, and one past the depth or complexity limit are answered 200 with `errors` and no data;
 * the complexity and depth messages are graphql-ruby's ("Query has complexity of N, which exceeds
 * max complexity of 250"). A valid query runs over the world, field errors beside partial data.
 */
export interface GitlabGraphqlAnswer {
  status: number;
  body: unknown;
  /** The query's complexity as GitLab scores it; undefined when it was refused before. */
  complexity?: number;
}

const refused = (message: string): GitlabGraphqlAnswer => ({
  status: 200,
  body: { errors: [{ message }] },
});

export function runGitlabGraphql(ctx: RequestContext): GitlabGraphqlAnswer {
  const body = ctx.json();
  const query = body.query;
  if (typeof query !== "string" || query.trim() === "")
    return refused("No query string was present");
  if (query.length > LIMITS.queryLength) {
    return refused(
      `Query too large: ${query.length} characters, the limit is ${LIMITS.queryLength}`,
    );
  }
  const variables =
    body.variables !== null && typeof body.variables === "object" && !Array.isArray(body.variables)
      ? (body.variables as Record<string, unknown>)
      : {};
  const schema = gitlabSchema();
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    return { status: 200, body: { errors: [(error as GraphQLError).toJSON()] } };
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) {
    return { status: 200, body: { errors: invalid.map((error) => error.toJSON()) } };
  }
  const { complexity, depth } = scoreQuery(schema, document, variables);
  const limit = ctx.caller === null ? LIMITS.anonymousComplexity : LIMITS.complexity;
  if (depth > LIMITS.depth) {
    return refused(`Query has depth of ${depth}, which exceeds max depth of ${LIMITS.depth}`);
  }
  if (complexity > limit) {
    return refused(
      `Query has complexity of ${complexity}, which exceeds max complexity of ${limit}`,
    );
  }
  const result = execute({
    schema,
    document,
    rootValue: queryRoot(ctx, { limit, score: complexity }),
    variableValues: variables,
  });
  if (result instanceof Promise) throw new Error("the sandbox's GitLab resolvers are synchronous");
  const answer: Record<string, unknown> = { data: result.data ?? null };
  if (result.errors && result.errors.length > 0) {
    answer.errors = result.errors.map((error) => error.toJSON());
  }
  return { status: 200, body: answer, complexity };
}
