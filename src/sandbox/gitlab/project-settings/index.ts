import * as z from "zod";
import { check } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { GITLAB_TIERS } from "../tiers.js";
import {
  ACCESS_LEVEL_VALUES,
  BOOLEAN_FIELDS,
  branchesOf,
  FEATURE_FIELDS,
  PAGES_ACCESS_LEVEL_VALUES,
  settingsOf,
  topicsOf,
} from "./records.js";
import { lifecycleRoutes } from "./lifecycle-routes.js";
import { projectSettingsRoutes } from "./routes.js";
import { settingsFields } from "./shapes.js";

/**
 * Projects' own settings and lifecycle (the `project_settings` kind): the fields of GitLab's "Edit
 * a project" beyond the world's description, default branch and visibility, kept beside each
 * project and shown in its answer; the branches a default branch may be switched to; creating,
 * renaming, transferring, archiving and unarchiving a project (lifecycle-routes.ts).
 */
const level = z.enum(ACCESS_LEVEL_VALUES);

/** Optional seed fields of these names, typed by them. */
function optionalFields<K extends string, T extends z.ZodType>(
  names: readonly K[],
  make: (name: K) => T,
): Record<K, z.ZodOptional<T>> {
  return Object.fromEntries(names.map((name) => [name, make(name).optional()])) as Record<
    K,
    z.ZodOptional<T>
  >;
}

const settingsSeed = z
  .strictObject({
    topics: z.array(z.string().min(1)).optional(),
    merge_method: z.enum(["merge", "rebase_merge", "ff"]).optional(),
    squash_option: z.enum(["never", "always", "default_on", "default_off"]).optional(),
    merge_commit_template: z.string().nullable().optional(),
    squash_commit_template: z.string().nullable().optional(),
    ci_config_path: z.string().nullable().optional(),
    auto_cancel_pending_pipelines: z.enum(["disabled", "enabled"]).optional(),
    build_timeout: z.number().int().min(600).max(2629745).optional(),
    ...optionalFields(BOOLEAN_FIELDS, () => z.boolean()),
    ...optionalFields(
      FEATURE_FIELDS.filter((field) => field !== "pages_access_level"),
      () => level,
    ),
    pages_access_level: z.enum(PAGES_ACCESS_LEVEL_VALUES).optional(),
  })
  .default({});

export const projectSettings = gitlabArea({
  name: "project-settings",
  seed: {
    projects: {
      /** Branches besides the default one (which every project has). */
      branches: z.array(z.string().min(1)).default([]),
      settings: settingsSeed,
    },
  },
  demo: {
    projects: [
      {
        id: 1,
        branches: ["develop", "release/1.x"],
        settings: {
          topics: ["api", "backend"],
          squash_option: "default_on",
          only_allow_merge_if_pipeline_succeeds: true,
          wiki_access_level: "disabled",
        },
      },
      { id: 2, branches: ["next"], settings: { topics: ["web"], merge_method: "ff" } },
      { id: 3, settings: { ci_config_path: "ci/pipeline.yml", build_timeout: 7200 } },
    ],
  },
  build(world, seed) {
    seed.projects.forEach((projectSeed, index) => {
      const project = world.seeded.projects[index];
      if (project === undefined) return;
      const branches = branchesOf(project);
      for (const name of projectSeed.branches) branches.add(name);
      const { topics, ...fields } = projectSeed.settings;
      const settings = settingsOf(project);
      Object.assign(settings, fields);
      const known = topicsOf(world);
      settings.topics = (topics ?? []).map((name, at) => {
        check(
          !(topics ?? []).slice(0, at).some((other) => other.toLowerCase() === name.toLowerCase()),
          ["projects", index, "settings", "topics", at],
          `topic '${name}' is listed twice`,
        );
        const kept = known.get(name.toLowerCase()) ?? name;
        known.set(name.toLowerCase(), kept);
        return kept;
      });
    });
  },
  projectFields: (world, project, simple) =>
    settingsFields(
      settingsOf(project),
      simple,
      GITLAB_TIERS.indexOf(world.tier) >= GITLAB_TIERS.indexOf("premium"),
    ),
  routes: [...projectSettingsRoutes, ...lifecycleRoutes],
});
