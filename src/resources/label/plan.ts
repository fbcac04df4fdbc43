import type { Change, PlannedRequest } from "../../core/plan.js";
import { type Member, type MemberChange, planCollection } from "../collection.js";
import { repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { type CanonicalLabel, colorOf, fromRead, LABEL_SHAPE, sameName } from "./canonical.js";
import type { LabelSettings, Labels } from "./settings.js";

/**
 * Plans a repository's labels against one listing of them. A label is found by its name in any case
 * (GitHub's names are not case-sensitive), else under one of its previous names, which is then
 * renamed with `PATCH …/labels/{name}` and `new_name`: the label stays the same record, so every
 * issue and pull request that carries it keeps it (a delete and a create would take it off them,
 * Probot settings#534). The case of a name is changed only when a previous name asks for it.
 */

const KIND = "label";

export function labelsPath(repo: RepoRef): string {
  return `${repoPath(repo)}/labels`;
}

function labelPath(path: string, name: string): string {
  return `${path}/${encodeURIComponent(name)}`;
}

function deletion(path: string, live: CanonicalLabel, note: string): MemberChange {
  return {
    action: "delete",
    diff: diffValues(live, {}),
    requests: [{ method: "DELETE", path: labelPath(path, live.name) }],
    live_fingerprint: fingerprint(live),
    notes: [note],
  };
}

function created(path: string, name: string, settings: LabelSettings): MemberChange {
  const body: Record<string, string> = { name };
  if (settings.color !== undefined) body.color = colorOf(settings.color);
  if (settings.description) body.description = settings.description;
  return {
    action: "create",
    diff: diffValues({}, body),
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
    name,
    color: settings.color === undefined ? live.color : colorOf(settings.color),
    description: settings.description ?? live.description,
  };
  const diff = diffValues(live, target);
  const planned = { live_fingerprint: fingerprint(live), ...(notes.length > 0 ? { notes } : {}) };
  if (diff.length === 0) return { action: "no-op", diff: [], requests: [], ...planned };
  const body: Record<string, string> = {};
  if (target.name !== live.name) body.new_name = target.name;
  if (target.color !== live.color) body.color = target.color;
  if (target.description !== live.description) body.description = target.description;
  const request: PlannedRequest = { method: "PATCH", path: labelPath(path, live.name), body };
  return { action: "update", diff, requests: [request], ...planned };
}

/** The first live label of one of these names, in any case. */
function named(
  live: readonly CanonicalLabel[],
  names: readonly string[],
): CanonicalLabel | undefined {
  for (const name of names) {
    const found = live.find((label) => sameName(label.name, name));
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The live label an item is about: the one of its name in any case, else (unless the item is null)
 * the first found of its previous names, which is then renamed.
 */
function matchOf({ name, desired }: Member<LabelSettings | null>, live: readonly CanonicalLabel[]) {
  return {
    live:
      named(live, [name]) ?? (desired === null ? undefined : named(live, desired.previously ?? [])),
  };
}

function planItem(
  path: string,
  { name, desired }: Member<LabelSettings | null>,
  current: CanonicalLabel | undefined,
  live: readonly CanonicalLabel[],
): MemberChange {
  if (desired === null) {
    if (current === undefined) {
      return { action: "no-op", diff: [], requests: [], live_fingerprint: fingerprint(null) };
    }
    return deletion(
      path,
      current,
      "null in the desired state; the issues and pull requests that carry it lose it",
    );
  }
  if (current === undefined) return created(path, name, desired);
  const previousNames = desired.previously ?? [];
  if (!sameName(current.name, name)) {
    return edited(path, current, name, desired, [
      `renamed from "${current.name}" (previously): the issues and pull requests that carry it keep it`,
    ]);
  }
  // A previous name in another case asks for this name's exact case.
  const recased =
    current.name !== name && previousNames.some((previous) => sameName(previous, name));
  const others = previousNames
    .filter((previous) => !sameName(previous, name))
    .flatMap((previous) => named(live, [previous]) ?? [])
    .map((other) => `"${other.name}" (a previous name) exists too and is not this label`);
  return edited(path, current, recased ? name : current.name, desired, others);
}

export interface LabelPlanInput {
  reader: ResourceReader;
  repo: RepoRef;
  value: Labels;
  /** When the plan verifies an apply: the labels of this repository it deleted. */
  deleted: readonly Change[];
}

export function planLabels({ reader, repo, value, deleted }: LabelPlanInput): Promise<Change[]> {
  const path = labelsPath(repo);
  return planCollection({
    reader,
    scope: `${repo.owner}/${repo.name}`,
    kind: KIND,
    what: "the labels",
    mode: value.mode ?? "additive",
    members: Object.entries(value.items ?? {}).map(([name, desired]) => ({ name, desired })),
    path,
    list: async () => {
      const listed = await reader.list(path, undefined, LABEL_SHAPE);
      return listed.kind === "found" ? { kind: "found", data: listed.data.map(fromRead) } : listed;
    },
    nameOf: (label) => label.name,
    canonical: (name) => name.toLowerCase(),
    match: matchOf,
    plan: (member, current, live) => planItem(path, member, current, live),
    // Authoritative mode deletes the live labels no item is about.
    remove: (label) => ({
      name: label.name,
      change: deletion(
        path,
        label,
        "not in the desired state (labels mode: authoritative); the issues and pull requests that carry it lose it",
      ),
    }),
    deleted,
  });
}
