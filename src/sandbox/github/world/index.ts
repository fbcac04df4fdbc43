import { githubArea } from "../area.js";
import { accountRoutes } from "./account-routes.js";
import { worldPermissions } from "./app-permissions.js";
import { worldDemo } from "./demo.js";
import { generateRepositories } from "./generate.js";
import { repositoryRoutes } from "./repository-routes.js";
import { buildWorld, worldSeed } from "./seed.js";

/**
 * GitHub's world: users, organizations, Apps and their installations, and repositories with their
 * own settings and branches (records.ts); who a credential names and what it may reach
 * (credentials.ts, installation-access.ts), and the reads of accounts and repositories.
 */
export const world = githubArea({
  name: "world",
  seed: worldSeed,
  keys: { users: "login", organizations: "login", repositories: "full_name" },
  demo: worldDemo,
  build: buildWorld,
  generate: generateRepositories,
  routes: [...repositoryRoutes, ...accountRoutes],
  permissions: worldPermissions,
});
