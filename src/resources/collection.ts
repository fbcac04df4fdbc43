import {
  addressOf,
  type Change,
  type ChangeError,
  newChange,
  type PlannedRequest,
} from "../core/plan.js";
import { changeError, type ReadResult } from "./context.js";
import { fingerprint } from "./fingerprint.js";

/**
 * A collection of named members (a repository's variables, an environment's secrets …) planned
 * against its live listing: every member written is planned by name, and under `authoritative` every
 * live member not written is deleted, marked with `removal` so the engine can cap removals. A listing
 * that failed plans every member written as its error and, under `authoritative`, one change for the
 * members it would have deleted; never an empty collection.
 */
export interface Collection<D, L> {
  target: string;
  scope: string;
  kind: string;
  /** Prefixed to every member's name in addresses: "" or "environments/production/". */
  prefix: string;
  /** What the collection is, for messages: "the variables of acme/api". */
  what: string;
  mode: "additive" | "authoritative";
  /** Members written, by canonical name. */
  desired: ReadonlyMap<string, D>;
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
  const { target, scope, kind, prefix, desired } = collection;
  const idle =
    collection.mode === "additive" && desired.size === 0 && !(collection.deleted ?? []).length;
  if (idle) return [];
  const listing = await collection.list();
  const named = (name: string) => newChange(target, scope, kind, `${prefix}${name}`);
  const failed = (error: ChangeError): Change[] => [
    ...(collection.mode === "authoritative"
      ? [
          {
            ...named("*"),
            error,
            notes: [
              `the members of ${collection.what} authoritative mode would delete could not be listed`,
            ],
          },
        ]
      : []),
    ...[...desired.keys()].map((name) => ({ ...named(name), error })),
    ...verifiedDeletes(collection, { error }),
  ];
  if (listing.kind === "error") return failed(listing.error);
  if (listing.kind === "absent" && collection.absentNote === undefined) {
    return failed(changeError(`${collection.what} could not be read: ${listing.detail}`));
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
    const removal = {
      collection: addressOf(target, scope, kind, `${prefix}*`).slice(0, -1),
      live: live.size,
    };
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
  return [...changes, ...verifiedDeletes(collection, { live }, changes)];
}

/**
 * The members an apply deleted, as the plan that verifies it sees them: planned as already absent
 * once the listing no longer holds them, or with the listing's error; never absent by default.
 */
function verifiedDeletes<D, L>(
  collection: Collection<D, L>,
  listed: { live: ReadonlyMap<string, L> } | { error: ChangeError },
  planned: readonly Change[] = [],
): Change[] {
  const names = new Set(planned.map((change) => change.name));
  return (collection.deleted ?? []).flatMap((change): Change[] => {
    if (names.has(change.name) || !change.name.startsWith(collection.prefix)) return [];
    const member = change.name.slice(collection.prefix.length);
    if (member.includes("/")) return [];
    const again = newChange(change.target, change.scope, change.kind, change.name);
    if ("error" in listed) return [{ ...again, error: listed.error }];
    if (listed.live.has(member)) return [];
    return [{ ...again, live_fingerprint: fingerprint(null) }];
  });
}
