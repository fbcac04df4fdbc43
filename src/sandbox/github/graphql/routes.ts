import type { GraphqlPart } from "./context.js";
import type { Route } from "../http.js";
import { runGraphql } from "./executor.js";

/**
 * `POST /graphql`, GitHub's one GraphQL endpoint. The request pipeline meters it on its own terms
 * (`metered: "graphql"`): the secondary limit counts 1 point a query against the endpoint's 2,000 a
 * minute, and the primary budget is the `graphql` category, charged the query's cost here once it
 * is known (executor.ts).
 */
export function graphqlRoutes(options: {
  timeoutMs: number | undefined;
  parts: readonly GraphqlPart[];
}): Route[] {
  let answered = 0;
  return [
    {
      method: "POST",
      pattern: "/graphql",
      metered: "graphql",
      handler: (ctx) => {
        const budget = ctx.budget("graphql");
        const answer = runGraphql({
          world: ctx.world,
          caller: ctx.caller,
          base: ctx.base,
          body: ctx.json(),
          budget,
          timeoutMs: options.timeoutMs,
          parts: options.parts,
          requestId: `SANDBOX-GRAPHQL-${(++answered).toString(16).toUpperCase().padStart(6, "0")}`,
        });
        const rate = budget.status();
        return {
          status: answer.status,
          body: answer.body,
          headers: {
            "X-RateLimit-Limit": String(rate.limit),
            "X-RateLimit-Remaining": String(rate.remaining),
            "X-RateLimit-Reset": String(rate.reset),
            "X-RateLimit-Used": String(rate.used),
            "X-RateLimit-Resource": "graphql",
          },
        };
      },
    },
  ];
}
