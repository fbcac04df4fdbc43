import * as z from "zod";
import { gitlabArea } from "../area.js";
import { GITLAB_TIERS } from "../tiers.js";
import {
  GIT_ACCESS_PROTOCOLS,
  GROUP_BOOLEAN_FIELDS,
  groupSettingsOf,
  PROJECT_CREATION_LEVELS,
  PROTECTION_LEVELS,
  SHARED_RUNNERS_SETTINGS,
  SUBGROUP_CREATION_LEVELS,
  WIKI_ACCESS_LEVELS,
} from "./records.js";
import { createGroup } from "./create.js";
import { groupSettingsRoutes } from "./routes.js";
import { groupSettingsFields } from "./shapes.js";

/**
 * Groups' own settings (the `group_settings` kind): the fields of GitLab's "Update group
 * attributes" beyond the world's visibility, kept beside each group and shown in its answer.
 */

const level = z.union(PROTECTION_LEVELS.map((value) => z.literal(value)));

const settingsSeed = z
  .strictObject({
    description: z.string().max(255).optional(),
    project_creation_level: z.enum(PROJECT_CREATION_LEVELS).optional(),
    subgroup_creation_level: z.enum(SUBGROUP_CREATION_LEVELS).optional(),
    two_factor_grace_period: z.number().int().min(0).optional(),
    default_branch: z.string().min(1).nullable().optional(),
    default_branch_protection_defaults: z
      .strictObject({
        allowed_to_push: z.array(z.strictObject({ access_level: level })),
        allowed_to_merge: z.array(z.strictObject({ access_level: level })),
        allow_force_push: z.boolean(),
        developer_can_initial_push: z.boolean(),
      })
      .optional(),
    shared_runners_setting: z.enum(SHARED_RUNNERS_SETTINGS).optional(),
    enabled_git_access_protocol: z.enum(GIT_ACCESS_PROTOCOLS).optional(),
    wiki_access_level: z.enum(WIKI_ACCESS_LEVELS).optional(),
    ...(Object.fromEntries(
      GROUP_BOOLEAN_FIELDS.map((field) => [field, z.boolean().optional()]),
    ) as Record<(typeof GROUP_BOOLEAN_FIELDS)[number], z.ZodOptional<z.ZodBoolean>>),
  })
  .default({});

export const groupSettings = gitlabArea({
  name: "group-settings",
  seed: { groups: { settings: settingsSeed } },
  demo: {
    groups: [
      {
        path: "acme",
        settings: {
          description: "Acme's engineering group",
          request_access_enabled: false,
          project_creation_level: "maintainer",
        },
      },
      { path: "platform", settings: { subgroup_creation_level: "owner" } },
    ],
  },
  build(world, seed) {
    seed.groups.forEach((groupSeed, index) => {
      const group = world.seeded.groups[index];
      if (group !== undefined) Object.assign(groupSettingsOf(group), groupSeed.settings);
    });
  },
  groupFields: (world, group) =>
    groupSettingsFields(
      group,
      groupSettingsOf(group),
      GITLAB_TIERS.indexOf(world.tier) >= GITLAB_TIERS.indexOf("premium"),
    ),
  routes: [
    ...groupSettingsRoutes,
    {
      method: "POST",
      pattern: "/api/v4/groups",
      operation: "POST /api/v4/groups",
      handler: createGroup,
    },
  ],
});
