import { gitlabArea } from "../area.js";
import { runGitlabGraphql } from "./executor.js";

/**
 * GitLab's GraphQL API, `POST /api/graphql`, over the vendored subset of its schema (schema.ts)
 * and the world the REST areas keep: what forgeplan's bulk reads ask of projects (their CI/CD
 * variables, members and branch rules), with GitLab's limits (complexity.ts). Each answer names
 * the complexity GitLab would have scored in `X-Gitlab-Query-Complexity` — a sandbox header, for
 * tests and benchmarks to check the limit is kept; GitLab itself answers it in `queryComplexity`.
 */
export const gitlabGraphql = gitlabArea({
  name: "graphql",
  routes: [
    {
      method: "POST",
      pattern: "/api/graphql",
      // GitLab counts a query as one request of the user's API limit, not in a GraphQL budget.
      readsOnly: true,
      handler: (ctx) => {
        const answer = runGitlabGraphql(ctx);
        const headers: Record<string, string> = {};
        if (answer.complexity !== undefined) {
          headers["X-Gitlab-Query-Complexity"] = String(answer.complexity);
        }
        return { status: answer.status, body: answer.body, headers };
      },
    },
  ],
});
