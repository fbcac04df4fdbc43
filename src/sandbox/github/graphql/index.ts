import { githubArea } from "../area.js";
import { graphqlPermissions } from "./app-permissions.js";
import { graphqlRoutes } from "./routes.js";

/**
 * `POST /graphql`, GitHub's GraphQL endpoint: the schema's roots (`repository`, `node`,
 * `rateLimit`) here, and each area's fields of `Repository` and objects by id in the area
 * (`GithubArea.graphql`).
 */
export const graphql = githubArea({
  name: "graphql",
  routesFor: (setup) => graphqlRoutes({ timeoutMs: setup.graphqlTimeoutMs, parts: setup.graphql }),
  permissions: graphqlPermissions,
});
