import { attached } from "../../core/attached.js";
import type { GitlabWorld, Project } from "../world/records.js";

/**
 * A project's settings that the world's record does not hold (its description, default branch and
 * visibility are the world's): the fields of GitLab's "Edit a project" this area serves.
 */

export const ACCESS_LEVEL_VALUES = ["disabled", "private", "enabled"] as const;
export const PAGES_ACCESS_LEVEL_VALUES = ["disabled", "private", "enabled", "public"] as const;

export const FEATURE_FIELDS = [
  "issues_access_level",
  "repository_access_level",
  "merge_requests_access_level",
  "forking_access_level",
  "wiki_access_level",
  "builds_access_level",
  "snippets_access_level",
  "pages_access_level",
  "analytics_access_level",
  "container_registry_access_level",
  "security_and_compliance_access_level",
  "releases_access_level",
  "environments_access_level",
  "feature_flags_access_level",
  "infrastructure_access_level",
  "monitor_access_level",
  "model_experiments_access_level",
  "model_registry_access_level",
] as const;

export const BOOLEAN_FIELDS = [
  "request_access_enabled",
  "only_allow_merge_if_pipeline_succeeds",
  "allow_merge_on_skipped_pipeline",
  "only_allow_merge_if_all_discussions_are_resolved",
  "remove_source_branch_after_merge",
  "allow_pipeline_trigger_approve_deployment",
] as const;

export type FeatureField = (typeof FEATURE_FIELDS)[number];
export type BooleanField = (typeof BOOLEAN_FIELDS)[number];

export type ProjectSettingsRecord = {
  topics: string[];
  merge_method: "merge" | "rebase_merge" | "ff";
  squash_option: "never" | "always" | "default_on" | "default_off";
  merge_commit_template: string | null;
  squash_commit_template: string | null;
  ci_config_path: string | null;
  auto_cancel_pending_pipelines: "disabled" | "enabled";
  build_timeout: number;
} & Record<BooleanField, boolean> &
  Record<FeatureField, string>;

/** A project's settings, GitLab's defaults until a seed or a PUT sets them. */
export const settingsOf = attached((_project: Project): ProjectSettingsRecord => ({
  topics: [],
  merge_method: "merge",
  squash_option: "default_off",
  merge_commit_template: null,
  squash_commit_template: null,
  ci_config_path: null,
  auto_cancel_pending_pipelines: "enabled",
  build_timeout: 3600,
  request_access_enabled: true,
  only_allow_merge_if_pipeline_succeeds: false,
  allow_merge_on_skipped_pipeline: false,
  only_allow_merge_if_all_discussions_are_resolved: false,
  remove_source_branch_after_merge: true,
  allow_pipeline_trigger_approve_deployment: false,
  ...(Object.fromEntries(
    FEATURE_FIELDS.map((field) => [
      field,
      field === "security_and_compliance_access_level" || field === "pages_access_level"
        ? "private"
        : "enabled",
    ]),
  ) as Record<FeatureField, string>),
}));

/** A project's branches by name (case-sensitive, as Git's): the default branch and the seed's. */
export const branchesOf = attached(
  (project: Project) =>
    new Set<string>(project.default_branch === null ? [] : [project.default_branch]),
);

/**
 * The instance's topics by lower-case name: a project given a topic that exists in another case
 * gets the existing one (Projects::Topic `find_by_name_case_insensitive`).
 */
export const topicsOf = attached((_world: GitlabWorld) => new Map<string, string>());
