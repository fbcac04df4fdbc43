import { check, type SeedPath } from "../../core/seed.js";
import type { GitlabWorld, Project, User } from "../world/records.js";
import { storedColor } from "./colors.js";
import { availableLabels, type Label, labelIds, labelsOf } from "./records.js";
import { byTitle, labelBasicShape } from "./shapes.js";

/**
 * Labels as issues and merge requests carry them (GitLab's `label_links`): assigned by name, read
 * back by name or in full. The issues and merge-requests areas use this; the labels area keeps the
 * records.
 */

/**
 * A label GitLab creates for a name no label has: Label's `DEFAULT_COLOR`,
 * `Gitlab::Color.of('#6699cc')` (app/models/label.rb).
 */
const DEFAULT_COLOR = "#6699cc";

/**
 * The labels named, as an issue's or a merge request's create or edit assigns them
 * (IssuableBaseService#find_or_create_label_ids, Labels::FindOrCreateService): each name, trimmed,
 * is the label the project sees by that title (its own, or a group's above it); where none exists
 * and the caller may manage the project's labels (`admin_label`, Planner and above), a project
 * label with the default colour is made ("If a label does not already exist, this creates a new
 * project label and assigns it to the issue": doc/api/issues.md, "New issue"); otherwise the name
 * is dropped, as a label that was not saved has no id to assign. Each label once.
 */
export function labelsNamed(
  world: GitlabWorld,
  project: Project,
  names: readonly string[],
  caller: User,
): Label[] {
  const assigned: Label[] = [];
  for (const name of names) {
    const title = name.trim();
    let label = availableLabels(project).find((candidate) => candidate.title === title);
    if (label === undefined && mayCreate(world, project, caller, title)) {
      label = {
        id: labelIds(world).label++,
        title,
        color: storedColor(DEFAULT_COLOR),
        description: null,
        owner: { project },
      };
      labelsOf(project).push(label);
    }
    if (label !== undefined && !assigned.includes(label)) assigned.push(label);
  }
  return assigned;
}

/** A new label is saved only where Label's validations pass: a title, ≤ 255 characters, no comma. */
function mayCreate(world: GitlabWorld, project: Project, caller: User, title: string): boolean {
  const valid = title !== "" && [...title].length <= 255 && !title.includes(",");
  return valid && world.hasRole(project, caller, "planner");
}

/** The labels the project sees by these titles; a title none has matches nothing. */
export function labelsTitled(project: Project, titles: readonly string[]): Label[] {
  const seen = availableLabels(project);
  return seen.filter((label) => titles.includes(label.title));
}

/**
 * An issue's or a merge request's `labels` in an answer (lib/api/entities/issue_basic.rb,
 * merge_request_basic.rb): their titles sorted, or with `with_labels_details=true` each label as
 * LabelBasic shows it, sorted by title.
 */
export function carriedLabels(labels: readonly Label[], details: boolean): unknown[] {
  const sorted = [...labels].sort((a, b) => byTitle(a.title, b.title));
  return details ? sorted.map(labelBasicShape) : sorted.map((label) => label.title);
}

/**
 * The listings' `labels` filter (doc/api/issues.md, merge_requests.md, "List project issues"):
 * items carrying every label named; `None` alone, items with no label; `Any` alone, items with at
 * least one (IssuableFinder compares those two downcased). Titles match as written.
 */
export function carriesLabels(labels: readonly Label[], wanted: readonly string[]): boolean {
  if (wanted.length === 0) return true;
  if (wanted.length === 1 && wanted[0]!.toLowerCase() === "none") return labels.length === 0;
  if (wanted.length === 1 && wanted[0]!.toLowerCase() === "any") return labels.length > 0;
  return wanted.every((name) => labels.some((label) => label.title === name));
}

/**
 * The labels a seed names for an issue or a merge request: each must be one the project sees (its
 * own or a group's above it); a seed is a fixture, so a name no label has is a mistake in it
 * rather than a label to make.
 */
export function seededLabels(project: Project, names: readonly string[], at: SeedPath): Label[] {
  const seen = availableLabels(project);
  return names.map((name, position) => {
    const label = seen.find((candidate) => candidate.title === name);
    check(label !== undefined, [...at, position], `no label '${name}' in this project`);
    return label;
  });
}
