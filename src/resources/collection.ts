/**
 * What the kinds of keyed collections (labels, autolinks, Actions variables and secrets) share: the
 * mode, the error of a listing that failed, the `*` change that stands for what authoritative mode
 * would delete, the collection a removal belongs to, the deletes of an apply planned again by the
 * plan that verifies it, and a planner of collections whose members are found by name alone.
 */
import * as z from "zod";
import type { PrintBlock } from "../config/spec.js";
import {
  addressOf,
  type Change,
  type ChangeError,
  newChange,
  type PlannedRequest,
} from "../core/plan.js";
import { changeError, type ReadResult, type ResourceReader } from "./context.js";
import type { PlanOptions } from "./kind.js";
import { fingerprint } from "./fingerprint.js";

/** A collection's `mode`: whether the members it does not list are left alone or deleted. */
export type Mode = "additive" | "authoritative";

/** The schema of a collection's `mode` (`members`: what it holds, for the description). */
export function modeField(members: string) {
  return z
    .enum(["additive", "authoritative"])
    .optional()
    .describe(
      `additive (default): ${members} not listed are left alone; authoritative: they are deleted (with --allow-delete, under the removal caps).`,
    );
}

/** The `validate --print` block of a collection's mode, addressed `…/<kind>/*`. */
export function modeBlock(kind: string, mode: string | undefined): PrintBlock {
  return mode === undefined
    ? { kind, name: "*", path: ["mode"], fixed: [], defaults: [["mode", "additive"]] }
    : { kind, name: "*", path: ["mode"], fixed: [["mode", mode]] };
}

/**
 * The collection a removal counts in, by a name unique in the plan: `github/acme/api/label`, or
 * with the prefix its members are addressed under, `github/acme/api/variable/environments/prod`.
 */
export function collectionOf(target: string, scope: string, kind: string, within = ""): string {
  return addressOf(target, scope, kind, within).slice(0, -1);
}

/** Why a listing that was not found failed: its error, or the repository it could not see. */
export function listingError(
  listed: Exclude<ReadResult<unknown>, { kind: "found" }>,
  reader: ResourceReader,
  scope: string,
  path: string,
): ChangeError {
  if (listed.kind === "error") return listed.error;
  const owner = scope.includes("/") ? "repository" : "organization";
  return changeError(
    `${owner} ${scope} was not found (or ${reader.credential} cannot see it)`,
    "GET",
    path,
    404,
  );
}

/**
 * A collection that could not be listed: each named member carries the error, and in authoritative
 * mode one `*` change stands for the members it would delete, which are unknown — never "no change".
 * `within`: the prefix members are addressed under, and what the collection is, for the note.
 */
export function unlistedMembers(
  reader: ResourceReader,
  scope: string,
  kind: string,
  names: readonly string[],
  authoritative: boolean,
  error: ChangeError,
  within: { prefix: string; what: string } = { prefix: "", what: `the ${kind}s` },
): Change[] {
  const all: Change[] = authoritative
    ? [
        {
          // The `*` of a whole kind's collection is `unlistedChange`'s, which the engine recognizes.
          ...newChange(reader.target, scope, kind, `${within.prefix}*`),
          error,
          notes: [`${within.what} authoritative mode would delete could not be listed`],
        },
      ]
    : [];
  return [
    ...all,
    ...names.map((name) => ({ ...newChange(reader.target, scope, kind, name), error })),
  ];
}

/**
 * The deletes an apply carried out that no change of this plan names (authoritative mode's), as the
 * plan that verifies it sees them: already absent once the listing lacks them, or the listing's
 * error; one still listed is left out. `same` compares names as the service does.
 */
export function deletedAgain(
  deleted: readonly Change[],
  planned: readonly Change[],
  listed: { names: readonly string[] } | { error: ChangeError },
  same: (a: string, b: string) => boolean,
): Change[] {
  return deleted.flatMap((change): Change[] => {
    if (planned.some((other) => same(other.name, change.name))) return [];
    const again = newChange(change.target, change.scope, change.kind, change.name);
    if ("error" in listed) return [{ ...again, error: listed.error }];
    if (listed.names.some((name) => same(name, change.name))) return [];
    return [{ ...again, live_fingerprint: fingerprint(null) }];
  });
}

/**
 * A collection of named members (a repository's variables, an environment's secrets …) planned
 * against its live listing: every member written is planned by name, and under `authoritative` every
 * live member not written is deleted, marked with `removal` so the engine can cap removals. A listing
 * that failed plans every member written as its error and, under `authoritative`, one change for the
 * members it would have deleted; never an empty collection.
 */
export interface Collection<D, L> {
  reader: ResourceReader;
  scope: string;
  kind: string;
  /** Prefixed to every member's name in addresses: "" or "environments/production/". */
  prefix: string;
  /** What the collection is, for messages: "the variables of acme/api". */
  what: string;
  mode: Mode;
  /** Members written, by canonical name. */
  desired: ReadonlyMap<string, D>;
  /** Where the collection is listed, for the error of a listing that failed. */
  path: string;
  /**
   * Reads the live listing: members by canonical name; `absent` when what holds them does not
   * exist. Not read when nothing depends on it (an additive collection that writes no member).
   */
  list(): Promise<ReadResult<ReadonlyMap<string, L>>>;
  /** What a 404 of the listing means: an error (undefined), or an empty collection with a note. */
  absentNote?: string;
  /** The change of one written member against its live state (undefined: it does not exist). */
  plan(name: string, desired: D, live: L | undefined): Promise<Partial<Change>> | Partial<Change>;
  /** The request that deletes a live member. */
  deleteRequest(name: string): PlannedRequest;
  /** What the plan shows of a live member it deletes. */
  shown(live: L): Record<string, unknown>;
  /** The deletes of this collection an apply carried out, when the plan verifies it. */
  deleted?: readonly Change[];
}

export async function planCollection<D, L>(collection: Collection<D, L>): Promise<Change[]> {
  const { reader, scope, kind, prefix, desired } = collection;
  const { target } = reader;
  const deleted = (collection.deleted ?? []).filter((change) => {
    const member = change.name.startsWith(prefix) ? change.name.slice(prefix.length) : "/";
    return !member.includes("/");
  });
  if (collection.mode === "additive" && desired.size === 0 && deleted.length === 0) return [];
  const listing = await collection.list();
  const named = (name: string) => newChange(target, scope, kind, `${prefix}${name}`);
  const same = (a: string, b: string) => a === b;
  if (listing.kind === "error" || (listing.kind === "absent" && !collection.absentNote)) {
    const error = listingError(listing, reader, scope, collection.path);
    const planned = unlistedMembers(
      reader,
      scope,
      kind,
      [...desired.keys()].map((name) => `${prefix}${name}`),
      collection.mode === "authoritative",
      error,
      { prefix, what: collection.what },
    );
    return [...planned, ...deletedAgain(deleted, planned, { error }, same)];
  }
  const live: ReadonlyMap<string, L> = listing.kind === "found" ? listing.data : new Map();
  const changes: Change[] = [];
  for (const [name, value] of desired) {
    const part = await collection.plan(name, value, live.get(name));
    const note = listing.kind === "absent" ? [collection.absentNote!] : [];
    const notes = [...(part.notes ?? []), ...(part.action === "create" ? note : [])];
    changes.push({ ...named(name), ...part, ...(notes.length > 0 ? { notes } : {}) });
  }
  if (collection.mode === "authoritative") {
    const removal = { collection: collectionOf(target, scope, kind, prefix), live: live.size };
    for (const [name, member] of live) {
      if (desired.has(name)) continue;
      const shown = collection.shown(member);
      changes.push({
        ...named(name),
        action: "delete",
        diff: Object.entries(shown).map(([path, before]) => ({
          path,
          before,
          ...(path === "value" && before === "set" ? { sensitive: true } : {}),
        })),
        requests: [collection.deleteRequest(name)],
        live_fingerprint: fingerprint(shown),
        notes: [`${name} is not in the desired state (mode: authoritative)`],
        removal,
      });
    }
  }
  const names = [...live.keys()].map((name) => `${prefix}${name}`);
  return [...changes, ...deletedAgain(deleted, changes, { names }, same)];
}

/** How a kind reads, plans and shows the members of any of its collections at `path`. */
export interface Members<D, L> {
  list(path: string): Promise<ReadResult<ReadonlyMap<string, L>>>;
  plan(
    path: string,
    name: string,
    desired: D,
    live: L | undefined,
  ): ReturnType<Collection<D, L>["plan"]>;
  shown: Collection<D, L>["shown"];
}

/** One collection written: where it is listed and how its members are addressed. */
export interface Written<D> {
  path: string;
  /** Prefixed to members' names in addresses: "", "dependabot/", "environments/production/". */
  prefix: string;
  what: string;
  mode: Mode;
  /** Members as written (names in any case); undefined: the collection is not managed. */
  items: Record<string, D> | undefined;
  absentNote?: string;
}

/**
 * Where a kind plans its collections: its reader, the scope they are addressed under, the options,
 * its members, and the name the service files a member under (`canonical`).
 */
export interface Place<D, L> {
  reader: ResourceReader;
  scope: string;
  kind: string;
  options: PlanOptions;
  members: Members<D, L>;
  canonical(name: string): string;
}

/** Plans the collections written at one place (one not written is not managed). */
export async function planNamed<D, L>(
  place: Place<D, L>,
  collections: ReadonlyArray<Written<D>>,
): Promise<Change[]> {
  const { reader, scope, kind, options, members, canonical } = place;
  const planned = await Promise.all(
    collections.flatMap(({ items, path, absentNote, ...collection }) =>
      items === undefined
        ? []
        : [
            planCollection<D, L>({
              ...collection,
              reader,
              path,
              scope,
              kind,
              desired: new Map(
                Object.entries(items).map(([name, value]) => [canonical(name), value]),
              ),
              ...(absentNote === undefined ? {} : { absentNote }),
              list: () => members.list(path),
              plan: (name, desired, live) => members.plan(path, name, desired, live),
              shown: members.shown,
              deleteRequest: (name) => ({ method: "DELETE", path: `${path}/${name}` }),
              deleted: options.deleted?.at(reader.target, scope, kind) ?? [],
            }),
          ],
    ),
  );
  return planned.flat();
}
