/**
 * How a GitLab group's own settings are written (`settings:` in a `groups` entry): the fields of
 * GitLab's "Update group attributes" (`PUT /groups/:id`, doc/api/groups.md) a settings tool
 * manages. Keys are GitLab's parameter names; a field not written is left as GitLab has it.
 */
import * as z from "zod";
import { closed } from "../../config/fields.js";
import {
  type Defined,
  defineSetting,
  type EntryFacts,
  type RuleProblem,
} from "../../config/spec.js";

/** The access levels a default branch protection names, by name: no one, developers, maintainers. */
export const PROTECTION_LEVELS = { no_one: 0, developer: 30, maintainer: 40 } as const;
export type ProtectionLevel = keyof typeof PROTECTION_LEVELS;

export const FLAGS = {
  request_access_enabled: "Users may request access to the group.",
  require_two_factor_authentication: "Every member must set up two-factor authentication.",
  share_with_group_lock: "Projects of the group may not be shared with other groups.",
  mentions_disabled: "The group cannot be mentioned (@group).",
  emails_enabled: "GitLab sends the group's email notifications.",
  lfs_enabled: "Large File Storage for the group's projects.",
  prevent_sharing_groups_outside_hierarchy:
    "Groups outside the hierarchy may not be invited (top-level groups only).",
  math_rendering_limits_enabled: "Math rendering limits apply in the group.",
  lock_math_rendering_limits_enabled: "The math rendering limits setting is locked for subgroups.",
  membership_lock: "Users cannot be added to the group's projects (Premium).",
  prevent_forking_outside_group: "Projects cannot be forked outside the group (Premium).",
} as const;
export type Flag = keyof typeof FLAGS;

/**
 * Fields GitLab documents as "Premium and Ultimate only": elsewhere GitLab drops them from a write
 * and leaves them out of its answer (doc/api/groups.md, "Update group attributes").
 */
export const TIERED: Readonly<Record<string, string>> = {
  membership_lock: "Premium",
  prevent_forking_outside_group: "Premium",
  wiki_access_level: "Premium",
};

/** Fields only top-level groups have: "present in the response only for top-level groups". */
export const TOP_LEVEL_ONLY = ["prevent_sharing_groups_outside_hierarchy"] as const;

const level = z.enum(Object.keys(PROTECTION_LEVELS) as [ProtectionLevel, ...ProtectionLevel[]]);
const levels = (what: string) =>
  z
    .array(level)
    .min(1)
    .refine((list) => new Set(list).size === list.length, { error: "a level is listed twice" })
    .optional()
    .describe(`Who may ${what}: no_one, developer or maintainer (compared as a set).`);

export const groupSettings = closed({
  create: z
    .literal(true)
    .optional()
    .describe(
      "true: create the subgroup under its parent when it does not exist (applied only with --allow-create); the group is written by its full path. forgeplan never deletes a group.",
    ),
  description: z.string().max(255).optional().describe("The group's description."),
  visibility: z
    .enum(["private", "internal", "public"])
    .optional()
    .describe("private, internal or public; a change is applied only with --allow-visibility."),
  project_creation_level: z
    .enum(["noone", "maintainer", "developer"])
    .optional()
    .describe(
      "Who may create projects: noone, maintainer, or developer (Developers and Maintainers).",
    ),
  subgroup_creation_level: z
    .enum(["owner", "maintainer"])
    .optional()
    .describe("Who may create subgroups: owner or maintainer."),
  two_factor_grace_period: z
    .int()
    .min(0)
    .optional()
    .describe("Hours before two-factor authentication is enforced."),
  default_branch: z
    .string()
    .min(1)
    .optional()
    .describe("The default branch name of the group's new projects."),
  default_branch_protection_defaults: closed({
    allowed_to_push: levels("push to a new project's default branch"),
    allowed_to_merge: levels("merge into it"),
    allow_force_push: z.boolean().optional().describe("Force pushes to it are allowed."),
    developer_can_initial_push: z
      .boolean()
      .optional()
      .describe("Developers may push the initial commit."),
  })
    .optional()
    .describe("How the default branch of the group's new projects is protected."),
  shared_runners_setting: z
    .enum([
      "enabled",
      "disabled_and_overridable",
      "disabled_and_unoverridable",
      "disabled_with_override",
    ])
    .optional()
    .describe("Instance runners for the group's subgroups and projects."),
  enabled_git_access_protocol: z
    .enum(["ssh", "http", "all"])
    .optional()
    .describe("Git access over ssh, http or all (both)."),
  wiki_access_level: z
    .enum(["disabled", "private", "enabled"])
    .optional()
    .describe("The group wiki: disabled, private or enabled (Premium)."),
  ...(Object.fromEntries(
    Object.entries(FLAGS).map(([flag, what]) => [flag, z.boolean().optional().describe(what)]),
  ) as Record<Flag, z.ZodOptional<z.ZodBoolean>>),
});

export type GroupSettings = z.output<typeof groupSettings>;

/** What plans as the group's own settings: every written key but `create`. */
export function settingsFields(value: GroupSettings): Omit<GroupSettings, "create"> {
  const { create: _create, ...fields } = value;
  return fields;
}

/**
 * `create: true` makes a subgroup under a parent the path names (`acme/platform`): a top-level
 * group is not created here (GitLab.com lets no API client create one), and a group written by
 * its id names one that exists.
 */
function rules(value: GroupSettings, entry: EntryFacts): RuleProblem[] {
  if (value.create !== true) return [];
  const group = String(entry.settings?.group ?? "");
  if (/^\d+$/.test(group) || !group.includes("/")) {
    return [
      {
        path: ["create"],
        message: `create: true makes a subgroup: write the group by its full path under an existing parent (acme/platform), not ${group}`,
      },
    ];
  }
  return [];
}

/** Each key is a setting of its own: entries may split them, and a PR-scoped plan keeps each. */
function defines(value: GroupSettings): Defined[] {
  return Object.keys(value).map((key) => ({ id: key, path: [key], what: `the setting ${key}` }));
}

export const groupSettingsSetting = defineSetting({
  key: "settings",
  schema: groupSettings.describe(
    "The GitLab group's own settings (GitLab's PUT /groups/:id): description, visibility, who may create projects and subgroups, access requests, two-factor authentication, default branch protection and the other documented fields. A field not written is left as GitLab has it.",
  ),
  rules,
  defines,
  print: () => [{ kind: "group_settings", name: "group", path: [] }],
});
