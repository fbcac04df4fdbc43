import type { Change, PlannedRequest } from "../../core/plan.js";
import { type Member, type MemberChange, planCollection } from "../collection.js";
import { changeError, type ReadResult, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import {
  type CanonicalLabel,
  colorOf,
  compared,
  fromRead,
  LABEL_SHAPE,
  PROJECT_LABEL_SHAPE,
  sentColor,
} from "./canonical.js";
import type { LabelSettings, Labels } from "./settings.js";

/**
 * Plans a project's or a group's own labels against one listing, keyed by name as written (GitLab's
 * names are case-sensitive). A label is edited in place by its id (`PUT …/labels/:id`, GitLab's
 * `:name` takes "the name or id of the label"), and renamed by `previously` with `new_name`: the
 * label stays the same record, so the issues and merge requests that carry it keep it.
 *
 * Labels of the groups above are shown in a project's listing (`include_ancestor_groups` defaults
 * to true, `is_project_label: false`) and in a subgroup's: they are never written, created again
 * or deleted here. GitLab refuses a label of a name the place inherits (lib/api/helpers/
 * label_helpers.rb `create_label`: `available_labels_for(parent).find_by_title` → 409 "Label
 * already exists"; ProjectLabel `title_must_not_exist_at_group_level`), so an item of such a name
 * is an error that says to manage the label in the group's entry.
 */

const KIND = "gitlab_label";

/** Label::DEFAULT_COLOR (`Gitlab::Color.of('#6699cc')`), what a label made without one would get. */
export const DEFAULT_COLOR = "#6699cc";

export type Place = "project" | "group";

function deletion(path: string, live: CanonicalLabel, note: string): MemberChange {
  const before = compared(live);
  return {
    action: "delete",
    diff: diffValues(before, {}),
    requests: [{ method: "DELETE", path: `${path}/${live.id}` }],
    live_fingerprint: fingerprint(before),
    notes: [note],
  };
}

function created(path: string, place: Place, name: string, settings: LabelSettings): MemberChange {
  const written = settings.color ?? DEFAULT_COLOR;
  const body: Record<string, unknown> = { name, color: sentColor(written) };
  const shown: Record<string, unknown> = { color: colorOf(written) };
  if (settings.description) body.description = shown.description = settings.description;
  const priority = place === "project" && "priority" in settings ? settings.priority : undefined;
  if (priority !== undefined && priority !== null) body.priority = shown.priority = priority;
  return {
    action: "create",
    diff: diffValues({}, shown),
    requests: [{ method: "POST", path, body }],
    live_fingerprint: fingerprint(null),
  };
}

/** The live label's change into `name` with the written fields; a no-op when nothing differs. */
function edited(
  path: string,
  live: CanonicalLabel,
  name: string,
  settings: LabelSettings,
  notes: string[],
): MemberChange {
  const target: CanonicalLabel = {
    ...live,
    name,
    color: settings.color === undefined ? live.color : colorOf(settings.color),
    description: settings.description ?? live.description,
  };
  // A project's priority is compared and shown only where written: it is the one field an edit
  // leaves alone otherwise, and a partial answer (./graphql.ts) cannot show it.
  const withPriority =
    live.priority !== undefined && "priority" in settings && settings.priority !== undefined;
  if (withPriority) target.priority = settings.priority;
  const shown = (label: CanonicalLabel) => {
    const { priority, ...rest } = compared(label);
    return withPriority ? { ...rest, priority } : rest;
  };
  const before = shown(live);
  const diff = diffValues(before, shown(target));
  const planned = { live_fingerprint: fingerprint(before), ...(notes.length > 0 ? { notes } : {}) };
  if (diff.length === 0) return { action: "no-op", diff: [], requests: [], ...planned };
  const body: Record<string, unknown> = {};
  if (target.name !== live.name) body.new_name = target.name;
  if (target.color !== live.color) body.color = sentColor(settings.color!);
  if (target.description !== live.description) body.description = target.description;
  if (target.priority !== live.priority) body.priority = target.priority;
  const request: PlannedRequest = { method: "PUT", path: `${path}/${live.id}`, body };
  return { action: "update", diff, requests: [request], ...planned };
}

function inheritedError(scope: string, place: Place, name: string, what: string): MemberChange {
  return {
    error: changeError(
      `"${name}" is a label ${scope} inherits from a group above it; a ${place} cannot ${what} it (GitLab refuses a label of a name the ${place} inherits): manage it in that group's entry`,
    ),
  };
}

export interface LabelPlanInput {
  reader: ResourceReader;
  scope: string;
  /** The labels' path: `/api/v4/projects/:id/labels` or `/api/v4/groups/:id/labels`. */
  path: string;
  place: Place;
  value: Labels;
  /** When the plan verifies an apply: the labels of this place it deleted. */
  deleted: readonly Change[];
}

/**
 * The place's own labels, and the names of those it inherits (read once, when an item asks): a
 * project's one listing says which are its own; a group's own come from a listing without its
 * ancestors' (`include_ancestor_groups=false`), its inherited ones from the full listing.
 */
function listings(reader: ResourceReader, path: string, place: Place) {
  const none: ReadResult<ReadonlySet<string>> = { kind: "found", data: new Set() };
  let projectInherited = none;
  let ownIds = new Set<number>();
  let groupInherited: Promise<ReadResult<ReadonlySet<string>>> | undefined;
  const readGroupInherited = async (): Promise<ReadResult<ReadonlySet<string>>> => {
    const all = await reader.list(path, undefined, LABEL_SHAPE);
    if (all.kind !== "found") return all;
    return {
      kind: "found",
      data: new Set(all.data.filter((label) => !ownIds.has(label.id)).map((label) => label.name)),
    };
  };
  return {
    own: async (): Promise<ReadResult<CanonicalLabel[]>> => {
      if (place === "project") {
        const listed = await reader.list(path, undefined, PROJECT_LABEL_SHAPE);
        if (listed.kind !== "found") return listed;
        const inherited = listed.data.filter((label) => !label.is_project_label);
        projectInherited = { kind: "found", data: new Set(inherited.map((label) => label.name)) };
        return {
          kind: "found",
          data: listed.data
            .filter((label) => label.is_project_label)
            .map((label) => fromRead(label, true)),
        };
      }
      const listed = await reader.list(path, { include_ancestor_groups: "false" }, LABEL_SHAPE);
      if (listed.kind !== "found") return listed;
      ownIds = new Set(listed.data.map((label) => label.id));
      return { kind: "found", data: listed.data.map((label) => fromRead(label, false)) };
    },
    /** Read once, and for a group only when an item asks. */
    inherited: (): Promise<ReadResult<ReadonlySet<string>>> => {
      if (place === "project") return Promise.resolve(projectInherited);
      groupInherited ??= readGroupInherited();
      return groupInherited;
    },
  };
}

export function planGitlabLabels(input: LabelPlanInput): Promise<Change[]> {
  const { reader, scope, path, place, value, deleted } = input;
  const read = listings(reader, path, place);

  /** An error when `name` is inherited (or cannot be told), else undefined. */
  const inheritedName = async (name: string, what: string): Promise<MemberChange | undefined> => {
    const inherited = await read.inherited();
    if (inherited.kind === "error") return { error: inherited.error };
    if (inherited.kind === "found" && inherited.data.has(name)) {
      return inheritedError(scope, place, name, what);
    }
    return undefined;
  };

  const planItem = async (
    { name, desired }: Member<LabelSettings | null>,
    current: CanonicalLabel | undefined,
  ): Promise<MemberChange> => {
    if (desired === null) {
      if (current !== undefined) {
        return deletion(
          path,
          current,
          "null in the desired state; the issues and merge requests that carry it lose it",
        );
      }
      return (
        (await inheritedName(name, "delete")) ?? {
          action: "no-op",
          diff: [],
          requests: [],
          live_fingerprint: fingerprint(null),
        }
      );
    }
    if (current === undefined) {
      return (await inheritedName(name, "create")) ?? created(path, place, name, desired);
    }
    if (current.name !== name) {
      return (
        (await inheritedName(name, "rename a label to")) ??
        edited(path, current, name, desired, [
          `renamed from "${current.name}" (previously) in place: the issues and merge requests that carry it keep it`,
        ])
      );
    }
    return edited(path, current, name, desired, []);
  };

  return planCollection<LabelSettings | null, CanonicalLabel>({
    reader,
    scope,
    kind: KIND,
    what: `the labels of ${scope}`,
    mode: value.mode ?? "additive",
    members: Object.entries(value.items ?? {}).map(([name, desired]) => ({ name, desired })),
    path,
    list: read.own,
    nameOf: (label) => label.name,
    // The label of its name, else (unless the item is null) the first of its previous names.
    match: ({ name, desired }, live) => {
      const named = (wanted: string) => live.find((label) => label.name === wanted);
      const previous = desired === null ? [] : (desired.previously ?? []);
      return {
        live:
          named(name) ??
          previous.map(named).find((found): found is CanonicalLabel => found !== undefined),
      };
    },
    plan: planItem,
    remove: (label) => ({
      name: label.name,
      change: deletion(
        path,
        label,
        "not in the desired state (labels mode: authoritative); the issues and merge requests that carry it lose it",
      ),
    }),
    deleted,
  });
}
