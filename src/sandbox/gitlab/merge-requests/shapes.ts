import { carriedLabels } from "../labels/carried.js";
import { notesOf } from "../notes/records.js";
import { planningUser } from "../world/shapes.js";
import type { MergeRequest } from "./records.js";

function fullPath(value: MergeRequest): string {
  return `${value.project.group.fullPath}/${value.project.path}`;
}

export function mergeRequestUrl(base: string, value: MergeRequest): string {
  return `${base}/${fullPath(value)}/-/merge_requests/${value.iid}`;
}

/**
 * A merge request as the Merge requests API lists it (doc/api/merge_requests.md, "List project
 * merge requests"; doc/api/commits.md, "List merge requests associated with a commit", whose
 * example shows the same members). The single merge request's answer has these too. Its labels by
 * title, or in full with `with_labels_details=true` (`details`), as an issue's.
 */
export function mergeRequest(
  base: string,
  value: MergeRequest,
  details = false,
): Record<string, unknown> {
  return {
    id: value.id,
    iid: value.iid,
    project_id: value.project.id,
    title: value.title,
    description: value.description,
    state: value.state,
    created_at: value.created_at,
    updated_at: value.updated_at,
    merged_by: value.merged_by === null ? null : planningUser(base, value.merged_by),
    merge_user: value.merged_by === null ? null : planningUser(base, value.merged_by),
    merged_at: value.merged_at,
    closed_by: null,
    closed_at: null,
    target_branch: value.target_branch,
    source_branch: value.source_branch,
    user_notes_count: notesOf(value).length,
    upvotes: 0,
    downvotes: 0,
    author: planningUser(base, value.author),
    assignees: [],
    assignee: null,
    reviewers: [],
    source_project_id: value.project.id,
    target_project_id: value.project.id,
    labels: carriedLabels(value.labels, details),
    draft: false,
    work_in_progress: false,
    milestone: null,
    merge_when_pipeline_succeeds: false,
    merge_status: value.state === "opened" ? "can_be_merged" : "unchecked",
    detailed_merge_status: value.state === "opened" ? "mergeable" : "not_open",
    sha: value.sha,
    merge_commit_sha: value.merge_commit_sha,
    squash_commit_sha: value.squash_commit_sha,
    discussion_locked: null,
    should_remove_source_branch: null,
    force_remove_source_branch: false,
    prepared_at: value.created_at,
    reference: `!${value.iid}`,
    references: {
      short: `!${value.iid}`,
      relative: `!${value.iid}`,
      full: `${fullPath(value)}!${value.iid}`,
    },
    web_url: mergeRequestUrl(base, value),
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    squash: value.squash_commit_sha !== null,
    squash_on_merge: value.squash_commit_sha !== null,
    task_completion_status: { count: 0, completed_count: 0 },
    has_conflicts: false,
    blocking_discussions_resolved: true,
  };
}
