import { defineKind } from "../kind.js";
import { planOrganization, planRepository } from "./plan.js";
import { organizationVariablesSetting, repositoryVariablesSetting } from "./settings.js";
import { exportOrganization, exportRepository } from "./export.js";

/**
 * GitHub Actions variables of repositories, their environments and organizations, by name (GitHub
 * keeps names upper-cased and does not tell case apart, so neither does forgeplan).
 *
 * Environment-level values are a key of this kind (`variables.environments.<name>`), not of the
 * environments kind: they are read and written at their own endpoints, by their own rules
 * (authoritative deletes, removal caps), and apply after environments (the registry's order), so an
 * environment the same configuration creates exists when its variables are written.
 */
export const variableKind = defineKind({
  name: "variable",
  repository: {
    setting: repositoryVariablesSetting,
    plan: ({ reader, at, value, options }) => planRepository(reader, at, value, options),
    export: exportRepository,
  },
  organization: {
    setting: organizationVariablesSetting,
    plan: ({ reader, at, value, options }) => planOrganization(reader, at, value, options),
    export: exportOrganization,
  },
});
