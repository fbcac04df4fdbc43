import { attached } from "../../core/attached.js";
import type { Group } from "../world/records.js";

/**
 * A group's settings that the world's record does not hold (its visibility is the world's): the
 * fields of GitLab's "Update group attributes" (`PUT /groups/:id`, doc/api/groups.md) this area
 * serves.
 */

export const PROJECT_CREATION_LEVELS = ["noone", "maintainer", "developer"] as const;
export const SUBGROUP_CREATION_LEVELS = ["owner", "maintainer"] as const;
export const SHARED_RUNNERS_SETTINGS = [
  "enabled",
  "disabled_and_overridable",
  "disabled_and_unoverridable",
  "disabled_with_override",
] as const;
export const GIT_ACCESS_PROTOCOLS = ["ssh", "http", "all"] as const;
export const WIKI_ACCESS_LEVELS = ["disabled", "private", "enabled"] as const;
/** The access levels a default branch protection names: no one, developers, maintainers. */
export const PROTECTION_LEVELS = [0, 30, 40] as const;

export const GROUP_BOOLEAN_FIELDS = [
  "request_access_enabled",
  "require_two_factor_authentication",
  "share_with_group_lock",
  "mentions_disabled",
  "emails_enabled",
  "lfs_enabled",
  "prevent_sharing_groups_outside_hierarchy",
  "math_rendering_limits_enabled",
  "lock_math_rendering_limits_enabled",
  "membership_lock",
  "prevent_forking_outside_group",
] as const;

/** Fields GitLab documents as "Premium and Ultimate only": shown and kept there only. */
export const PREMIUM_FIELDS = [
  "membership_lock",
  "prevent_forking_outside_group",
  "wiki_access_level",
] as const;

export interface BranchProtectionDefaults {
  allowed_to_push: Array<{ access_level: number }>;
  allowed_to_merge: Array<{ access_level: number }>;
  allow_force_push: boolean;
  developer_can_initial_push: boolean;
}

export type GroupSettingsRecord = {
  description: string;
  project_creation_level: (typeof PROJECT_CREATION_LEVELS)[number];
  subgroup_creation_level: (typeof SUBGROUP_CREATION_LEVELS)[number];
  two_factor_grace_period: number;
  default_branch: string | null;
  default_branch_protection_defaults: BranchProtectionDefaults;
  shared_runners_setting: (typeof SHARED_RUNNERS_SETTINGS)[number];
  enabled_git_access_protocol: (typeof GIT_ACCESS_PROTOCOLS)[number];
  wiki_access_level: (typeof WIKI_ACCESS_LEVELS)[number];
} & Record<(typeof GROUP_BOOLEAN_FIELDS)[number], boolean>;

/**
 * A group's settings, a new group's defaults until a seed or a PUT sets them (the sandbox's choice
 * after GitLab's: Developers and Maintainers create projects, Maintainers subgroups; 48 hours'
 * grace; the default branch fully protected, "Protected against pushes" by anyone but Maintainers).
 */
export const groupSettingsOf = attached((_group: Group): GroupSettingsRecord => ({
  description: "",
  project_creation_level: "developer",
  subgroup_creation_level: "maintainer",
  two_factor_grace_period: 48,
  default_branch: null,
  default_branch_protection_defaults: {
    allowed_to_push: [{ access_level: 40 }],
    allowed_to_merge: [{ access_level: 40 }],
    allow_force_push: false,
    developer_can_initial_push: false,
  },
  shared_runners_setting: "enabled",
  enabled_git_access_protocol: "all",
  wiki_access_level: "enabled",
  request_access_enabled: true,
  require_two_factor_authentication: false,
  share_with_group_lock: false,
  mentions_disabled: false,
  emails_enabled: true,
  lfs_enabled: true,
  prevent_sharing_groups_outside_hierarchy: false,
  math_rendering_limits_enabled: true,
  lock_math_rendering_limits_enabled: false,
  membership_lock: false,
  prevent_forking_outside_group: false,
}));
