import { defineKind } from "../kind.js";
import { planGroupSettings } from "./plan.js";
import { groupSettingsSetting } from "./settings.js";
import { verifyGroupSettings } from "./verify.js";
import { exportGroupSettings } from "./export.js";

/**
 * A GitLab group's own settings (issue #37, item 1): the fields of GitLab's `PUT /groups/:id`
 * (`groups: [{group, settings}]`); subgroups are groups of their own entries, and `create: true`
 * makes one (./create.ts). It is the group scope's lifecycle kind: planned first, and when it
 * creates the group the entry's other keys wait for it.
 */
export const groupSettingsKind = defineKind({
  name: "group_settings",
  group: {
    setting: groupSettingsSetting,
    creates: true,
    plan: ({ reader, at, value }) => planGroupSettings({ reader, group: at, value }),
    export: exportGroupSettings,
  },
  verify: verifyGroupSettings,
});
