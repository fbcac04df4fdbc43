import { type Change, newChange, type PlannedRequest, type Removal } from "../../core/plan.js";
import { collectionOf, deletedAgain, listingError, unlistedMembers } from "../collection.js";
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

type Part = Pick<Change, "action" | "diff" | "requests" | "live_fingerprint"> &
  Partial<Pick<Change, "notes" | "removal">>;

interface Planned {
  name: string;
  part: Part;
}

/** The live labels, and which of them the desired items have taken. */
class LiveLabels {
  readonly #claimed = new Set<CanonicalLabel>();

  constructor(readonly all: readonly CanonicalLabel[]) {}

  named(name: string): CanonicalLabel | undefined {
    return this.all.find((label) => sameName(label.name, name));
  }

  claim(label: CanonicalLabel | undefined): void {
    if (label !== undefined) this.#claimed.add(label);
  }

  unclaimed(): CanonicalLabel[] {
    return this.all.filter((label) => !this.#claimed.has(label));
  }
}

function deletion(path: string, live: CanonicalLabel, note: string): Part {
  return {
    action: "delete",
    diff: diffValues(live, {}),
    requests: [{ method: "DELETE", path: labelPath(path, live.name) }],
    live_fingerprint: fingerprint(live),
    notes: [note],
  };
}

function created(path: string, name: string, settings: LabelSettings): Part {
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
): Part {
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

function planItem(
  path: string,
  name: string,
  settings: LabelSettings | null,
  live: LiveLabels,
): Part {
  const current = live.named(name);
  if (settings === null) {
    live.claim(current);
    if (current === undefined) {
      return { action: "no-op", diff: [], requests: [], live_fingerprint: fingerprint(null) };
    }
    return deletion(
      path,
      current,
      "null in the desired state; the issues and pull requests that carry it lose it",
    );
  }
  const previousNames = settings.previously ?? [];
  if (current !== undefined) {
    live.claim(current);
    // A previous name in another case asks for this name's exact case.
    const recased =
      current.name !== name && previousNames.some((previous) => sameName(previous, name));
    const others = previousNames
      .filter((previous) => !sameName(previous, name))
      .flatMap((previous) => live.named(previous) ?? [])
      .map((other) => `"${other.name}" (a previous name) exists too and is not this label`);
    return edited(path, current, recased ? name : current.name, settings, others);
  }
  const previous = previousNames.flatMap((candidate) => live.named(candidate) ?? [])[0];
  if (previous === undefined) return created(path, name, settings);
  live.claim(previous);
  return edited(path, previous, name, settings, [
    `renamed from "${previous.name}" (previously): the issues and pull requests that carry it keep it`,
  ]);
}

/** Authoritative mode deletes the live labels no item took, each marked as a removal. */
function unlisted(path: string, live: LiveLabels, removal: Removal): Planned[] {
  return live.unclaimed().map((label) => ({
    name: label.name,
    part: {
      ...deletion(
        path,
        label,
        "not in the desired state (labels mode: authoritative); the issues and pull requests that carry it lose it",
      ),
      removal,
    },
  }));
}

export interface LabelPlanInput {
  reader: ResourceReader;
  repo: RepoRef;
  value: Labels;
  /** When the plan verifies an apply: the labels of this repository it deleted. */
  deleted: readonly Change[];
}

export async function planLabels({
  reader,
  repo,
  value,
  deleted,
}: LabelPlanInput): Promise<Change[]> {
  const { mode = "additive", items = {} } = value;
  const scope = `${repo.owner}/${repo.name}`;
  const named = (list: readonly Planned[]): Change[] =>
    list.map(({ name, part }) => ({ ...newChange(reader.target, scope, KIND, name), ...part }));
  const path = labelsPath(repo);
  const listed = await reader.list(path, undefined, LABEL_SHAPE);
  if (listed.kind !== "found") {
    const error = listingError(listed, reader, scope, path);
    const planned = unlistedMembers(
      reader,
      scope,
      KIND,
      Object.keys(items),
      mode === "authoritative",
      error,
    );
    return [...planned, ...deletedAgain(deleted, planned, { error }, sameName)];
  }
  const live = new LiveLabels(listed.data.map(fromRead));
  const parts: Planned[] = Object.entries(items).map(([name, settings]) => ({
    name,
    part: planItem(path, name, settings, live),
  }));
  if (mode === "authoritative") {
    const collection = collectionOf(reader.target, scope, KIND);
    parts.push(...unlisted(path, live, { collection, live: live.all.length }));
  }
  const planned = named(parts);
  const names = live.all.map((label) => label.name);
  return [...planned, ...deletedAgain(deleted, planned, { names }, sameName)];
}
