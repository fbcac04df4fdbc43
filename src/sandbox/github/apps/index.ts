import { githubArea } from "../area.js";
import { appPermissions } from "./app-permissions.js";
import { appDirectoryRoutes, appRoutes } from "./routes.js";

/**
 * The GitHub App endpoints: an App and its installations (which the world keeps), and the
 * installation access tokens it is issued.
 */
export const apps = githubArea({
  name: "apps",
  routesFor: (setup) => [...appRoutes(setup), ...appDirectoryRoutes],
  permissions: appPermissions,
});
