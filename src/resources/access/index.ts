import { defineKind } from "../kind.js";
import { verifyGrant } from "./canonical.js";
import { accessGraphql } from "./graphql.js";
import { teamsFromOrganization } from "./organization-side.js";
import { planAccess } from "./plan.js";
import { accessSetting } from "./settings.js";
import { exportAccess } from "./export.js";

/**
 * Who has access to a repository (`access: {mode, users, teams}`): its direct collaborators, their
 * pending invitations and the teams granted access, each with a role. Layers merge user by user and
 * team by team. `additive` (the default) manages the grants listed; `authoritative` also removes
 * the direct grants and invitations not listed of each collection it writes (`users`, `teams`),
 * never an organization owner's access, access through a team, or a security manager team's. Its
 * removals are capped by the engine like every authoritative collection's.
 */
export const access = defineKind({
  name: "access",
  repository: {
    setting: accessSetting,
    plan: ({ reader, at, value, options }) => planAccess(reader, at, value, options),
    graphql: accessGraphql,
    organizationSide: teamsFromOrganization,
    export: exportAccess,
  },
  verify: verifyGrant,
});
