import type { Change, PlannedRequest } from "../../core/plan.js";
import { planCollection } from "../collection.js";
import type { ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import {
  type CanonicalDefinition,
  DEFINITION_SHAPE,
  desiredDefinition,
  liveDefinition,
  type ReadDefinition,
  REPOSITORY_VALUES_SHAPE,
} from "./canonical.js";
import type { Definition, Definitions } from "./settings.js";

/**
 * An organization's custom property definitions, planned as a collection by name (in any case):
 * a written one is managed whole and put with `PUT /orgs/{org}/properties/schema/{name}` when it
 * differs; null or authoritative mode deletes one with `DELETE …/schema/{name}`, which removes
 * every repository's value of it. Such a delete, and an update that takes away allowed values
 * repositories hold, counts those repositories against the removal limit
 * (src/engine/removal-caps.ts) and says how many hold it.
 */

export const KIND = "custom_property";

export const schemaPath = (org: string) => `/orgs/${encodeURIComponent(org)}/properties/schema`;
const valuesPath = (org: string) => `/orgs/${encodeURIComponent(org)}/properties/values`;

function put(org: string, name: string, desired: CanonicalDefinition): PlannedRequest {
  return { method: "PUT", path: `${schemaPath(org)}/${encodeURIComponent(name)}`, body: desired };
}

function deletion(org: string, live: ReadDefinition, note: string): Partial<Change> {
  const canonical = liveDefinition(live);
  return {
    action: "delete",
    diff: diffValues(canonical, {}),
    requests: [
      { method: "DELETE", path: `${schemaPath(org)}/${encodeURIComponent(live.property_name)}` },
    ],
    live_fingerprint: fingerprint(canonical),
    notes: [note],
  };
}

function planDefinition(
  org: string,
  name: string,
  written: Definition | null,
  live: ReadDefinition | undefined,
): Partial<Change> {
  if (written === null) {
    if (live === undefined) return { live_fingerprint: fingerprint(null) };
    return deletion(org, live, "null in the desired state");
  }
  const desired = desiredDefinition(written);
  if (live === undefined) {
    return {
      action: "create",
      diff: diffValues({}, desired),
      requests: [put(org, name, desired)],
      live_fingerprint: fingerprint(null),
    };
  }
  const canonical = liveDefinition(live);
  const diff = diffValues(canonical, desired);
  if (diff.length === 0) return { live_fingerprint: fingerprint(canonical) };
  return {
    action: "update",
    diff,
    // The live name keeps its case: GitHub files the property under the name it was created with.
    requests: [put(org, live.property_name, desired)],
    live_fingerprint: fingerprint(canonical),
  };
}

/** The allowed values a definition written drops that the live one has. */
function droppedValues(
  written: CanonicalDefinition | null,
  live: ReadDefinition | undefined,
): string[] {
  if (written === null || live === undefined) return [];
  const kept = new Set(written.allowed_values ?? []);
  return (live.allowed_values ?? []).filter((value) => !kept.has(value));
}

/** What a change takes away: the whole property (a delete), or allowed values an update drops. */
function takenAway(
  change: Change,
  dropped: ReadonlyMap<string, string[]>,
): { property: string; values?: string[] } | undefined {
  if (change.error !== undefined) return undefined;
  if (change.action === "delete") return { property: change.name };
  const values = dropped.get(change.name.toLowerCase()) ?? [];
  if (change.action !== "update" || values.length === 0) return undefined;
  return { property: change.name, values };
}

/** Who holds what a change takes away, naming the first five repositories. */
function holdersNote(taken: { property: string; values?: string[] }, repos: string[]): string {
  const named = `${repos.slice(0, 5).join(", ")}${repos.length > 5 ? ", …" : ""}`;
  const holds = repos.length === 1 ? "repository holds" : "repositories hold";
  return taken.values === undefined
    ? `${repos.length} ${holds} a value of ${taken.property} (${named}); deleting the property removes their values`
    : `${repos.length} ${holds} ${taken.values.join(", ")} (${named}); they keep a value the property no longer allows`;
}

/**
 * Marks the changes that take away what repositories hold: how many hold it, as a note and as a
 * removal the engine counts against the removal limit (each repository's value one member of the
 * property's values).
 */
async function withUsage(
  reader: ResourceReader,
  org: string,
  changes: Change[],
  dropped: ReadonlyMap<string, string[]>,
): Promise<Change[]> {
  const away = new Map(changes.map((change) => [change, takenAway(change, dropped)]));
  if (![...away.values()].some((item) => item !== undefined)) return changes;
  const listed = await reader.list(valuesPath(org), undefined, REPOSITORY_VALUES_SHAPE);
  return changes.map((change) => {
    const taken = away.get(change);
    if (taken === undefined) return change;
    if (listed.kind !== "found") {
      const error =
        listed.kind === "error"
          ? listed.error
          : {
              message: `the values of ${org}'s repositories could not be listed`,
              request: `GET ${valuesPath(org)}`,
            };
      return { ...change, error };
    }
    const key = taken.property.toLowerCase();
    const holders = listed.data.flatMap((repo) => {
      const value = repo.properties.find((item) => item.property_name.toLowerCase() === key)?.value;
      return value === undefined || value === null ? [] : [{ repo: repo.repository_name, value }];
    });
    const held =
      taken.values === undefined
        ? holders
        : holders.filter(({ value }) =>
            (Array.isArray(value) ? value : [value]).some((item) => taken.values!.includes(item)),
          );
    if (held.length === 0) return change;
    return {
      ...change,
      notes: [
        ...(change.notes ?? []),
        holdersNote(
          taken,
          held.map((item) => item.repo),
        ),
      ],
      removal: {
        collection: `${change.target}/${org}/custom_property/${taken.property} values`,
        live: taken.values === undefined ? held.length : holders.length,
        count: held.length,
        members: "repository values",
      },
    };
  });
}

export async function planDefinitions(
  reader: ResourceReader,
  org: string,
  value: Definitions,
  deleted: readonly Change[],
): Promise<Change[]> {
  const path = schemaPath(org);
  const dropped = new Map<string, string[]>();
  const changes = await planCollection({
    reader,
    scope: org,
    kind: KIND,
    what: "the custom properties",
    mode: value.mode ?? "additive",
    members: Object.entries(value.items ?? {}).map(([name, desired]) => ({ name, desired })),
    path,
    list: () => reader.list(path, undefined, DEFINITION_SHAPE),
    nameOf: (definition) => definition.property_name,
    canonical: (name) => name.toLowerCase(),
    plan: ({ name, desired }, live) => {
      dropped.set(name.toLowerCase(), droppedValues(desired && desiredDefinition(desired), live));
      return planDefinition(org, name, desired, live);
    },
    remove: (definition) => ({
      name: definition.property_name,
      change: deletion(
        org,
        definition,
        "not in the desired state (custom_properties mode: authoritative)",
      ),
    }),
    deleted,
  });
  return withUsage(reader, org, changes, dropped);
}
