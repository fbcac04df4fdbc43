import { defineKind } from "../kind.js";
import { verifyCustomProperty } from "./canonical.js";
import { planDefinitions } from "./definitions.js";
import { valuesFromOrganization } from "./organization-side.js";
import { definitionsSetting, valuesSetting } from "./settings.js";
import { creationValues, planValues } from "./plan.js";
import { exportDefinitions, exportValues } from "./export.js";

/**
 * Custom properties: an organization's definitions (`organizations: - custom_properties:`) and a
 * repository's values (`repositories: - properties:`), whose writes apply sends 30 repositories a
 * request. A repository this plan creates is given its values in its create request, as an
 * organization with required properties needs. docs/kinds.md, "Custom properties".
 */
export const customPropertyKind = defineKind({
  name: "custom_property",
  organization: {
    setting: definitionsSetting,
    plan: ({ reader, at, value, options }) =>
      planDefinitions(
        reader,
        at,
        value,
        options.deleted?.at(reader.target, at, "custom_property") ?? [],
      ),
    export: exportDefinitions,
  },
  repository: {
    setting: valuesSetting,
    plan: ({ reader, at, value, options }) => planValues({ reader, at, value, options }),
    export: exportValues,
    // The organization's definitions (once a plan) and the repository's values.
    restReads: () => 1,
    createFields: (value) => creationValues(value),
    organizationSide: valuesFromOrganization,
  },
  verify: verifyCustomProperty,
});
