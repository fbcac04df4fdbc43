import { defineKind } from "../kind.js";
import { rulesetGraphql } from "./graphql.js";
import { organizationWhere, planRulesets, repositoryWhere } from "./plan.js";
import { organizationRulesetsSetting, repositoryRulesetsSetting } from "./settings.js";
import { verifyWritten } from "./verify.js";
import { exportOrganizationRulesets, exportRepositoryRulesets } from "./export.js";

/**
 * Rulesets of repositories (`rulesets` in repository settings) and of organizations (the
 * `organizations` section), keyed by name. docs/kinds.md, "Rulesets".
 */
export const ruleset = defineKind({
  name: "ruleset",
  repository: {
    setting: repositoryRulesetsSetting,
    plan: ({ reader, at, value }) => planRulesets(repositoryWhere(reader, at), value, at),
    export: exportRepositoryRulesets,
    graphql: rulesetGraphql,
  },
  organization: {
    setting: organizationRulesetsSetting,
    plan: ({ reader, at, value }) => planRulesets(organizationWhere(reader, at), value),
    export: exportOrganizationRulesets,
  },
  verify: verifyWritten,
});
