import { attached } from "../../core/attached.js";
import type { GitlabWorld, Group, Project } from "../world/records.js";

/**
 * A label of a project or a group (app/models/label.rb, project_label.rb, group_label.rb): `color`
 * as GitLab stores it (a CSS name as its hex, a hex as sent: colors.ts), `description` null until
 * one is given. Issues and merge requests (issues/, merge-requests/) hold these records
 * themselves, as GitLab's `label_links` do, so a label renamed in place stays on them and a
 * deleted one leaves them.
 */
export interface Label {
  id: number;
  title: string;
  color: string;
  description: string | null;
  /** Whose it is: a project's own label, or a group's (which the groups and projects below see). */
  owner: { project: Project } | { group: Group };
}

/** A project's or a group's own labels, in the order they were made. */
export const labelsOf = attached((_owner: Project | Group): Label[] => []);

/** A project's priorities of the labels it sees (`label_priorities`), by label id. */
export const prioritiesOf = attached((_project: Project) => new Map<number, number>());

/** Label ids are one sequence across the instance, as GitLab's. */
export const labelIds = attached((_world: GitlabWorld) => ({ label: 1 }));

/** A group and the groups above it, nearest first. */
export function groupsFrom(group: Group | null): Group[] {
  const found: Group[] = [];
  for (let at = group; at !== null; at = at.parent) found.push(at);
  return found;
}

/**
 * The labels a project's issues and merge requests may carry: its own and those of every group
 * above it (`available_labels`: LabelsFinder with `include_ancestor_groups: true`).
 */
export function availableLabels(project: Project): Label[] {
  return [...labelsOf(project), ...groupsFrom(project.group).flatMap((group) => labelsOf(group))];
}
