import type { PushRuleRecord } from "./records.js";

/**
 * A push rule as GitLab answers it: a project's with `project_id` (EE::API::Entities::ProjectPushRule),
 * a group's without (API::Entities::GroupPushRule); docs, "Project push rules API", "Group push
 * rules API".
 */
export function pushRule(rule: PushRuleRecord, projectId?: number): Record<string, unknown> {
  const { id, created_at, ...fields } = rule;
  return {
    id,
    ...(projectId === undefined ? {} : { project_id: projectId }),
    created_at,
    ...fields,
  };
}
