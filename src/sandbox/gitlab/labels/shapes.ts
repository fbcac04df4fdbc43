import type { Project } from "../world/records.js";
import { textColorOf } from "./colors.js";
import { issuesOf } from "../issues/records.js";
import { mergeRequestsOf } from "../merge-requests/records.js";
import { type Label, prioritiesOf } from "./records.js";

/**
 * GitLab's label answers (lib/api/entities/label_basic.rb, label.rb, project_label.rb as the
 * OpenAPI description's APIEntitiesProjectLabel and APIEntitiesGroupLabel show them): every label
 * has id, name, description, description_html, text_color, color, archived and subscribed; the
 * issue and merge-request counts only where the listing is asked `with_counts=true` (doc/api/
 * labels.md: "Whether or not to include issue and merge request counts. Defaults to false"); a
 * label seen from a project adds its `priority` there and `is_project_label`.
 */

/** The projects whose issues and merge requests a label can be on: its own, or its group's. */
function projectsOf(label: Label, projects: Iterable<Project>): Project[] {
  if ("project" in label.owner) return [label.owner.project];
  const group = label.owner.group;
  return [...projects].filter((project) => {
    for (let at: Project["group"] | null = project.group; at !== null; at = at.parent) {
      if (at === group) return true;
    }
    return false;
  });
}

/**
 * A label's counts over the one set of issues and merge requests (the issues and merge-requests
 * areas' records): open and closed issues, open merge requests that carry it.
 */
function counted(label: Label, projects: readonly Project[]) {
  const carrying = (items: Iterable<{ state: string; labels: Label[] }>, state: string) =>
    [...items].filter((item) => item.state === state && item.labels.includes(label)).length;
  const sum = (count: (project: Project) => number) =>
    projects.reduce((total, project) => total + count(project), 0);
  return {
    open_issues_count: sum((p) => carrying(issuesOf(p).values(), "opened")),
    closed_issues_count: sum((p) => carrying(issuesOf(p).values(), "closed")),
    open_merge_requests_count: sum((p) => carrying(mergeRequestsOf(p).values(), "opened")),
  };
}

export interface LabelView {
  /** The project the label is seen from (its priority there, `is_project_label`), if any. */
  project?: Project;
  /** The world's projects, when the counts are asked for. */
  counts?: Iterable<Project>;
}

export function labelShape(label: Label, view: LabelView): Record<string, unknown> {
  const shown: Record<string, unknown> = {
    id: label.id,
    name: label.title,
    description: label.description,
    description_html: label.description === null ? null : escapeHtml(label.description),
    text_color: textColorOf(label.color),
    color: label.color,
    archived: false,
  };
  if (view.counts !== undefined) {
    const scope = view.project !== undefined ? [view.project] : projectsOf(label, view.counts);
    Object.assign(shown, counted(label, scope));
  }
  shown.subscribed = false;
  if (view.project !== undefined) {
    shown.priority = prioritiesOf(view.project).get(label.id) ?? null;
    shown.is_project_label = "project" in label.owner;
  }
  return shown;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * A label as an issue or a merge request shows it with `with_labels_details=true`
 * (lib/api/entities/label_basic.rb): id, name, description, text_color, description_html, color
 * and `archived`, which the label answers above show as false too.
 */
export function labelBasicShape(label: Label): Record<string, unknown> {
  return {
    id: label.id,
    name: label.title,
    description: label.description,
    text_color: textColorOf(label.color),
    description_html: label.description === null ? null : escapeHtml(label.description),
    color: label.color,
    archived: false,
  };
}

/** Labels are ordered by title (LabelsFinder#sort, `reorder(title: :asc)`), byte-wise as in "C". */
export function byTitle(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
