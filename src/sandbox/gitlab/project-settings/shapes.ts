import type { Project } from "../world/records.js";
import type { ProjectSettingsRecord } from "./records.js";

/**
 * The settings fields of GitLab's project answer (docs, "Projects API", "Get a single project"),
 * `topics` also in the `simple=true` shape (BasicProjectDetails has it). Tier fields appear only
 * where the tier has them (ee/lib/ee/api/entities/project.rb: `allow_pipeline_trigger_approve_deployment`
 * `if: project.feature_available?(:protected_environments)`).
 */
export function settingsFields(
  settings: ProjectSettingsRecord,
  simple: boolean,
  premium: boolean,
): Record<string, unknown> {
  if (simple) return { topics: [...settings.topics], tag_list: [...settings.topics] };
  const { allow_pipeline_trigger_approve_deployment: approve, ...rest } = settings;
  return {
    ...rest,
    topics: [...settings.topics],
    tag_list: [...settings.topics],
    ...(premium ? { allow_pipeline_trigger_approve_deployment: approve } : {}),
  };
}

/** A branch as `GET /projects/:id/repository/branches/:branch` answers it (docs, "Branches API"). */
export function branch(base: string, project: Project, name: string): Record<string, unknown> {
  const fullPath = `${project.group.fullPath}/${project.path}`;
  return {
    name,
    merged: false,
    protected: false,
    default: name === project.default_branch,
    developers_can_push: false,
    developers_can_merge: false,
    can_push: true,
    web_url: `${base}/${fullPath}/-/tree/${encodeURIComponent(name)}`,
    commit: {
      id: "0".repeat(40),
      short_id: "00000000",
      title: "Initial commit",
      message: "Initial commit",
      created_at: project.created_at,
      authored_date: project.created_at,
      committed_date: project.created_at,
      parent_ids: [],
    },
  };
}
