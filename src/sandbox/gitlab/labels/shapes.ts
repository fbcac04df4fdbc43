import type { Project } from "../world/records.js";
import { textColorOf } from "./colors.js";
import { issuesOf, type Label, type Labelled, mergeRequestsOf, prioritiesOf } from "./records.js";

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

function counted(label: Label, projects: readonly Project[]) {
  const carrying = (items: Labelled[], state: Labelled["state"]) =>
    items.filter((item) => item.state === state && item.labels.includes(label)).length;
  return {
    open_issues_count: projects.reduce((sum, p) => sum + carrying(issuesOf(p), "opened"), 0),
    closed_issues_count: projects.reduce((sum, p) => sum + carrying(issuesOf(p), "closed"), 0),
    open_merge_requests_count: projects.reduce(
      (sum, p) => sum + carrying(mergeRequestsOf(p), "opened"),
      0,
    ),
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
 * An issue or a merge request as the project listings show it (doc/api/issues.md, "List project
 * issues"; merge_requests.md): its labels by name (`with_labels_details` aside), as GitLab shows
 * them, in the labels' title order.
 */
export function labelledShape(
  item: Labelled,
  project: Project,
  kind: "issues" | "merge_requests",
  base: string,
): Record<string, unknown> {
  return {
    id: item.id,
    iid: item.iid,
    project_id: project.id,
    title: item.title,
    state: item.state,
    labels: item.labels.map((label) => label.title).sort(byTitle),
    web_url: `${base}/${project.group.fullPath}/${project.path}/-/${kind}/${item.iid}`,
  };
}

/** Labels are ordered by title (LabelsFinder#sort, `reorder(title: :asc)`), byte-wise as in "C". */
export function byTitle(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
