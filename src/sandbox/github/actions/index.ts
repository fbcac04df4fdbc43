import { githubArea } from "../area.js";
import { actionsPermissions } from "./app-permissions.js";
import { actionsPermissionRoutes } from "./permissions.js";
import { secretDigests } from "./secret-digests.js";
import { secretRoutes } from "./secrets.js";
import { actionsSeed, buildActions } from "./seed.js";
import { variableRoutes } from "./variables.js";

/**
 * GitHub Actions of repositories and organizations (the `actions`, `variable` and `secret` kinds):
 * Actions permissions, and the variables and secrets of repositories, organizations and
 * environments (an environment's are in the store of its record, environments/).
 */
export const actions = githubArea({
  name: "actions",
  seed: actionsSeed,
  demo: {
    organizations: [
      {
        login: "acme",
        actions: {
          enabled_repositories: "all",
          allowed_actions: "all",
          default_workflow_permissions: "write",
          can_approve_pull_request_reviews: false,
        },
        variables: [{ name: "REGISTRY", value: "ghcr.io/acme", visibility: "private" }],
        secrets: [{ name: "NPM_TOKEN", value: "sandbox-npm-token", visibility: "private" }],
      },
    ],
    repositories: [{ full_name: "acme/api", variables: { LOG_LEVEL: "info" } }],
  },
  build: buildActions,
  routes: [...actionsPermissionRoutes, ...variableRoutes, ...secretRoutes],
  permissions: actionsPermissions,
  // Not one of GitHub's endpoints: the digest of every stored secret, so a test (or a curious user
  // of the demo) can prove which value arrived without the sandbox keeping it.
  inspect: { secrets: (world) => ({ secrets: secretDigests(world) }) },
});
