import { defineKind } from "../kind.js";
import { around } from "./archiving.js";
import { settingsGraphql } from "./graphql.js";
import { locateRepository } from "./locate.js";
import { planSettings } from "./plan.js";
import { settingsSetting } from "./settings.js";
import { verifySettings } from "./verify.js";
import { exportSettings } from "./export.js";

/**
 * A repository's own settings and lifecycle (issue #32): GitHub's `PATCH /repos/{owner}/{repo}`
 * fields, its topics and security toggles, its default branch, and its creation, previous names and
 * archiving. It is also the registry's lifecycle kind: the engine asks it where each repository is,
 * and orders every kind's changes of a repository by the steps it marks (src/engine/).
 */
export const settingsKind = defineKind({
  name: "settings",
  repository: {
    setting: settingsSetting,
    plan: ({ reader, at, value, location, creation }) =>
      planSettings({ reader, repo: at, value, location, ...(creation ? { creation } : {}) }),
    graphql: settingsGraphql,
    export: exportSettings,
    lifecycle: {
      locate: ({ reader, at, value, listed }) =>
        locateRepository({
          reader,
          repo: at,
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
  verify: verifySettings,
});
