import type { GraphqlContext } from "../context.js";

/** `Query.rateLimit`: this query's cost and the caller's GraphQL budget after it. */
export function rateLimitRoot(ctx: GraphqlContext) {
  return { rateLimit: () => ctx.rateLimit() };
}
