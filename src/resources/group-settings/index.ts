import { defineKind } from "../kind.js";
import { exportGroupSettings } from "./export.js";
import { planGroupSettings } from "./plan.js";
import { groupSettingsSetting } from "./settings.js";
import { verifyGroupSettings } from "./verify.js";

/**
 * A GitLab group's own settings (issue #37, item 1): the fields of GitLab's `PUT /groups/:id`
 * (`groups: [{group, settings}]`); subgroups are groups of their own entries. Creating a subgroup
 * is not managed yet.
 */
export const groupSettingsKind = defineKind({
  name: "group_settings",
  group: {
    setting: groupSettingsSetting,
    plan: ({ reader, at, value }) => planGroupSettings({ reader, group: at, value }),
    export: exportGroupSettings,
  },
  verify: verifyGroupSettings,
});
