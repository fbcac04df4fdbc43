import { secretDigests } from "../actions/secret-digests.js";
import { githubArea } from "../area.js";
import { BY_TARGET_ROWS, PERMISSION_ROWS } from "../world/permission-rows.js";
import { buildLegacy } from "./build.js";
import { legacyDemo } from "./demo.js";
import { legacyRoutes } from "./routes.js";
import { legacySeed } from "./schema.js";

/** GitHub's records not yet in areas of their own. */
export const legacy = githubArea({
  name: "legacy",
  seed: legacySeed,
  keys: { users: "login", organizations: "login", repositories: "full_name" },
  demo: legacyDemo,
  build: (world, seed) => buildLegacy(world, seed),
  routesFor: legacyRoutes,
  permissions: { ...PERMISSION_ROWS, ...BY_TARGET_ROWS },
  inspect: { secrets: (world) => ({ secrets: secretDigests(world) }) },
});
