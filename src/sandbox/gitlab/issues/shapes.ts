import { carriedLabels } from "../labels/carried.js";
import { notesOf } from "../notes/records.js";
import { planningUser } from "../world/shapes.js";
import type { Issue } from "./records.js";

function fullPath(value: Issue): string {
  return `${value.project.group.fullPath}/${value.project.path}`;
}

/**
 * An issue as the Issues API answers it (doc/api/issues.md, "List project issues" example): its
 * labels by title, or in full with `with_labels_details=true` (`details`).
 */
export function issue(base: string, value: Issue, details = false): Record<string, unknown> {
  return {
    id: value.id,
    iid: value.iid,
    project_id: value.project.id,
    title: value.title,
    description: value.description,
    state: value.state,
    created_at: value.created_at,
    updated_at: value.updated_at,
    closed_at: value.closed_at,
    closed_by: value.closed_by === null ? null : planningUser(base, value.closed_by),
    labels: carriedLabels(value.labels, details),
    milestone: null,
    assignees: [],
    assignee: null,
    author: planningUser(base, value.author),
    type: "ISSUE",
    issue_type: "issue",
    user_notes_count: notesOf(value).length,
    merge_requests_count: 0,
    upvotes: 0,
    downvotes: 0,
    due_date: null,
    confidential: false,
    discussion_locked: null,
    web_url: `${base}/${fullPath(value)}/-/issues/${value.iid}`,
    references: {
      short: `#${value.iid}`,
      relative: `#${value.iid}`,
      full: `${fullPath(value)}#${value.iid}`,
    },
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    task_completion_status: { count: 0, completed_count: 0 },
    has_tasks: false,
    severity: "UNKNOWN",
  };
}
