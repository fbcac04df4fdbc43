import { defineKind } from "../kind.js";
import { planOrganization, planRepository } from "./plan.js";
import { organizationSecretsSetting, repositorySecretsSetting } from "./settings.js";
import { exportOrganization, exportRepository } from "./export.js";

/**
 * GitHub Actions and Dependabot secrets of repositories, their environments and organizations, by
 * name (GitHub does not tell case apart), compared by presence: GitHub never returns a value.
 */
export const secretKind = defineKind({
  name: "secret",
  repository: {
    setting: repositorySecretsSetting,
    plan: ({ reader, at, value, options }) => planRepository(reader, at, value, options),
    export: exportRepository,
  },
  organization: {
    setting: organizationSecretsSetting,
    plan: ({ reader, at, value, options }) => planOrganization(reader, at, value, options),
    export: exportOrganization,
  },
});
