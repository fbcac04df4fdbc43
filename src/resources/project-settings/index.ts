import { defineKind } from "../kind.js";
import { around } from "./lifecycle.js";
import { locateProject } from "./locate.js";
import { planProjectSettings, projectSettingsReads } from "./plan.js";
import { projectSettingsSetting } from "./settings.js";
import { verifyProjectSettings } from "./verify.js";
import { exportProjectSettings } from "./export.js";

/**
 * A GitLab project's own settings and lifecycle (issue #36, items 1 and 2): the fields of GitLab's
 * `PUT /projects/:id` (`projects: [{project, settings}]`), and its creation, previous paths and
 * archiving. It is also the project scope's lifecycle kind: the engine asks it where each project
 * is, and orders every kind's changes of a project by the steps it marks (src/engine/).
 */
export const projectSettingsKind = defineKind({
  name: "project_settings",
  project: {
    setting: projectSettingsSetting,
    plan: ({ reader, at, value, location }) =>
      planProjectSettings({ reader, project: at, value, location }),
    export: exportProjectSettings,
    restReads: projectSettingsReads,
    lifecycle: {
      locate: ({ reader, at, value, listed }) =>
        locateProject({
          reader,
          project: at,
          previously: value?.previously ?? [],
          ...(listed === undefined ? {} : { listed }),
        }),
      archivedPolicy: (value) => {
        const written = value?.archived_repositories;
        return { policy: written ?? "skip", explicit: written !== undefined };
      },
      aroundArchived: around,
    },
  },
  verify: verifyProjectSettings,
});
