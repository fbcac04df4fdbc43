import { attached } from "../../core/attached.js";
import type { GitlabWorld, Group, Project } from "../world/records.js";

/**
 * A label of a project or a group (app/models/label.rb, project_label.rb, group_label.rb): `color`
 * as GitLab stores it (a CSS name as its hex, a hex as sent: colors.ts), `description` null until
 * one is given.
 */
export interface Label {
  id: number;
  title: string;
  color: string;
  description: string | null;
  /** Whose it is: a project's own label, or a group's (which the groups and projects below see). */
  owner: { project: Project } | { group: Group };
}

/**
 * An issue or a merge request, as far as labels go: its labels are the records themselves
 * (GitLab's `label_links`), so a label renamed in place stays on it and a deleted one leaves it.
 */
export interface Labelled {
  id: number;
  iid: number;
  title: string;
  state: "opened" | "closed";
  labels: Label[];
}

/** A project's or a group's own labels, in the order they were made. */
export const labelsOf = attached((_owner: Project | Group): Label[] => []);

/** A project's priorities of the labels it sees (`label_priorities`), by label id. */
export const prioritiesOf = attached((_project: Project) => new Map<number, number>());

export const issuesOf = attached((_project: Project): Labelled[] => []);
export const mergeRequestsOf = attached((_project: Project): Labelled[] => []);

/** Ids are one sequence across the instance per table, as GitLab's. */
export const labelIds = attached((_world: GitlabWorld) => ({
  label: 1,
  issue: 1,
  mergeRequest: 1,
}));
