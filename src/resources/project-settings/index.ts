import { defineKind } from "../kind.js";
import { exportProjectSettings } from "./export.js";
import { planProjectSettings, projectSettingsReads } from "./plan.js";
import { projectSettingsSetting } from "./settings.js";
import { verifyProjectSettings } from "./verify.js";

/**
 * A GitLab project's own settings (issue #36, item 1): the fields of GitLab's `PUT /projects/:id`
 * (`projects: [{project, settings}]`). Its lifecycle (create, rename, archive: item 2) is not
 * managed yet.
 */
export const projectSettingsKind = defineKind({
  name: "project_settings",
  project: {
    setting: projectSettingsSetting,
    plan: ({ reader, at, value }) => planProjectSettings({ reader, project: at, value }),
    export: exportProjectSettings,
    restReads: projectSettingsReads,
  },
  verify: verifyProjectSettings,
});
