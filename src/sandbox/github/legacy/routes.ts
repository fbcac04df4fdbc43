import type { GithubSetup } from "../area.js";
import type { Route } from "../http.js";
import { accountRoutes } from "../account.js";
import { actionsPermissionRoutes } from "../actions/permissions.js";
import { secretRoutes } from "../actions/secrets.js";
import { variableRoutes } from "../actions/variables.js";
import { appDirectoryRoutes, appRoutes } from "../apps.js";
import { autolinkRoutes } from "../autolinks.js";
import { branchProtectionRoutes } from "../branch-protection/routes.js";
import { environmentRoutes } from "../environments/routes.js";
import { gistRoutes } from "../gists.js";
import { graphqlRoutes } from "../graphql/routes.js";
import { invitationRoutes } from "../invitations.js";
import { issueRoutes } from "../issues.js";
import { labelRoutes } from "../labels.js";
import { migrationRoutes } from "../migrations.js";
import { organizationSettingsRoutes } from "../organization-settings.js";
import { propertyRoutes } from "../properties/routes.js";
import { pullRoutes } from "../pulls.js";
import { repositoryRoutes } from "../repositories.js";
import { rulesetRoutes } from "../rulesets/routes.js";
import { settingsRoutes } from "../settings/routes.js";
import { accessRoutes } from "../access/routes.js";
import { teamRoutes } from "../team/routes.js";
import { hookRoutes } from "../webhooks/routes.js";

/**
 * GitHub's repository paths, one file (or folder) per area, named after the forgeplan kind it serves
 * where there is one. A route of a more specific path comes before one whose `*rest` would take it
 * (a branch's protection before the branch).
 */
export function legacyRoutes(options: GithubSetup): Route[] {
  return [
    ...branchProtectionRoutes,
    ...settingsRoutes,
    ...repositoryRoutes,
    ...invitationRoutes,
    ...hookRoutes,
    ...labelRoutes,
    ...environmentRoutes,
    ...autolinkRoutes,
    ...actionsPermissionRoutes,
    ...variableRoutes,
    ...secretRoutes,
    ...organizationSettingsRoutes,
    ...rulesetRoutes,
    ...teamRoutes,
    ...accessRoutes,
    ...propertyRoutes,
    ...issueRoutes,
    ...pullRoutes,
    ...accountRoutes,
    ...gistRoutes,
    ...migrationRoutes,
    ...appRoutes(options),
    ...appDirectoryRoutes,
    ...graphqlRoutes({ timeoutMs: options.graphqlTimeoutMs }),
  ];
}
