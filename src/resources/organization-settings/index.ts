import { defineKind } from "../kind.js";
import { verifyOrganizationSettings } from "./canonical.js";
import { planOrganizationSettings } from "./plan.js";
import { organizationSettingsSetting } from "./settings.js";
import { exportOrganizationSettings } from "./export.js";

/**
 * An organization's own settings (`organizations: - settings: {…}`): GitHub's `PATCH /orgs/{org}`
 * fields that are settings of the organization, not billing. docs/kinds.md, "Organization settings".
 */
export const organizationSettingsKind = defineKind({
  name: "organization_settings",
  organization: {
    setting: organizationSettingsSetting,
    plan: ({ reader, at, value }) => planOrganizationSettings(reader, at, value),
    export: exportOrganizationSettings,
  },
  verify: verifyOrganizationSettings,
});
