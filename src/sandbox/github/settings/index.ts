import { githubArea } from "../area.js";
import { settingsPermissions } from "./app-permissions.js";
import { settingsGraphql } from "./graphql.js";
import { settingsRoutes } from "./routes.js";

/**
 * A repository's own settings (the `settings` kind): the fields of the repository record the world
 * keeps (its seed is the world's), the toggles with endpoints of their own, a branch's rename, and
 * the repositories GitHub creates.
 */
export const settings = githubArea({
  name: "settings",
  routes: settingsRoutes,
  permissions: settingsPermissions,
  graphql: settingsGraphql,
});
