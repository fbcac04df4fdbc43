import type { KindModule } from "../kind.js";
import { exportSettings } from "./export.js";
import { settingsGraphql } from "./graphql.js";
import { locateRepository } from "./locate.js";
import { planSettings } from "./plan.js";
import { around } from "./archiving.js";
import {
  printSettings,
  type RepositorySettings,
  repositorySettings,
  settingsDefines,
  settingsRules,
} from "./settings.js";
import { verifySettings } from "./verify.js";

/**
 * A repository's own settings and lifecycle (issue #32): GitHub's `PATCH /repos/{owner}/{repo}`
 * fields, its topics and security toggles, its default branch, and its creation, previous names and
 * archiving. It is also the registry's lifecycle kind: the engine asks it where each repository is,
 * and orders every kind's changes of a repository by the steps it marks (src/engine/).
 */
export const settingsKind: KindModule = {
  name: "settings",
  repository: {
    setting: {
      key: "settings",
      schema: repositorySettings.describe(
        "The repository's own settings (GitHub's PATCH /repos/{owner}/{repo}, its topics and security toggles) and its lifecycle: create, previously, archived_repositories. A field not written is left as the service has it.",
      ),
      rules: settingsRules,
      defines: settingsDefines,
      print: printSettings,
    },
    plan: ({ reader, repo, value, location }) =>
      planSettings({ reader, repo, value: value as RepositorySettings, location }),
    graphql: settingsGraphql,
    export: exportSettings,
    lifecycle: {
      locate: ({ reader, repo, value, listed }) =>
        locateRepository({
          reader,
          repo,
          previously: (value as RepositorySettings | undefined)?.previously ?? [],
          ...(listed === undefined ? {} : { listed }),
        }),
      archivedPolicy: (value) => {
        const written = (value as RepositorySettings | undefined)?.archived_repositories;
        return { policy: written ?? "skip", explicit: written !== undefined };
      },
      aroundArchived: around,
    },
  },
  verify: verifySettings,
};
