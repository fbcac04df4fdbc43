/**
 * The one way a kind plans a collection of members against its live listing (labels, autolinks,
 * environments, webhooks, rulesets, access grants, team members, Actions variables and secrets):
 * list once, match each member written to the live member it is about, plan its create, update or
 * delete, and under `mode: authoritative` delete the live members nothing written keeps — each
 * marked with `removal`, so the engine caps removals per collection (src/engine/removal-caps.ts).
 * A listing that failed plans every member written as its error and, under `authoritative`, one `*`
 * change for the members it would have deleted, which are unknown: never an empty collection. The
 * plan that verifies an apply plans again each delete it carried out that no member names.
 *
 * What differs between collections is the kind's: how a member is matched (by name, in any case,
 * by a previous name, by a pinned id), what its change is, how a live member is removed.
 */
import * as z from "zod";
import type { PrintBlock } from "../config/spec.js";
import { addressOf, type Change, type ChangeError, newChange, type Removal } from "../core/plan.js";
import { changeError, type ReadResult, type ResourceReader } from "./context.js";
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

/** A member written: the name its change is addressed by (after the prefix), and what is wanted. */
export interface Member<D> {
  name: string;
  desired: D;
}

/** The live member a written one is about (none: it is created), or why it cannot be told. */
export type Match<L> = { live: L | undefined } | { error: ChangeError };

/** A member's change as its kind plans it; the collection addresses it. */
export type MemberChange = Partial<Change>;

export interface Collection<D, L> {
  reader: ResourceReader;
  scope: string;
  kind: string;
  /** Prefixed to every member's name in addresses: "", "users/", "environments/production/". */
  prefix?: string;
  /** What the collection is, for notes: "the labels", "the variables of acme/api". */
  what: string;
  mode: Mode;
  /** The members written, in the order their changes are listed. */
  members: ReadonlyArray<Member<D>>;
  /** Where the collection is listed: the request a listing that was not found names. */
  path: string;
  /**
   * Reads the live members, in the service's order. Not read when nothing depends on it (an
   * additive collection that writes no member and has no delete to verify).
   */
  list(): Promise<ReadResult<readonly L[]>>;
  /** What a 404 of the listing means: an error (undefined), or an empty collection with a note. */
  absentNote?: string;
  /** The name the service files a live member under. */
  nameOf(live: L): string;
  /**
   * The form names are matched in: `name.toLowerCase()` where the service does not tell case
   * apart. Default: as written.
   */
  canonical?(name: string): string;
  /** The live member a written one is about; default: the first of its name (see `canonical`). */
  match?(member: Member<D>, live: readonly L[]): Match<L>;
  /** Whether authoritative mode keeps a live member; default: when a written member matched it. */
  kept?(live: L, listed: readonly L[]): boolean;
  /** The change of one written member against the live one it is about (`listed`: all of them). */
  plan(
    member: Member<D>,
    live: L | undefined,
    listed: readonly L[],
  ): MemberChange | Promise<MemberChange>;
  /**
   * What authoritative mode does with a live member it does not keep (`removed`: all such): its
   * name and change, a delete (which is marked for the removal caps) or a note of why it stays;
   * undefined, nothing to show. Required of a collection that may be authoritative.
   */
  remove?(
    live: L,
    removed: readonly L[],
  ):
    | { name: string; change: MemberChange }
    | undefined
    | Promise<{ name: string; change: MemberChange } | undefined>;
  /** The members a removal counts against (the removal caps); default: every member listed. */
  size?(listed: readonly L[]): number;
  /**
   * The `*` change of an authoritative listing that failed: with a note saying what could not be
   * listed (default), `bare` without one, or `none` where the kind makes one `*` for several
   * collections.
   */
  unlisted?: "noted" | "bare" | "none";
  /** When the plan verifies an apply: the deletes of this collection it carried out. */
  deleted?: readonly Change[];
  /**
   * Whether a delete the apply carried out is still listed; default: a live member has its name.
   * For members whose deletes name them otherwise (a hook by its url, deleted by its id).
   */
  stillListed?(deleted: Change, listed: readonly L[]): boolean;
}

/**
 * The collection a removal counts in, by a name unique in the plan: `github/acme/api/label`, or
 * with the prefix its members are addressed under, `github/acme/api/variable/environments/prod`.
 */
function collectionOf(target: string, scope: string, kind: string, within = ""): string {
  return addressOf(target, scope, kind, within).slice(0, -1);
}

/** Why a listing that was not found failed: its error, or the repository it could not see. */
function listingError(
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

/** Whether a delete is still where it was, gone, or could not be told (the read's error). */
export type DeletedState = "listed" | "gone" | ChangeError;

/**
 * The deletes an apply carried out that no change of this plan names (`same` compares names as the
 * service does), as the plan that verifies it sees them: already absent (a no-op) once their place
 * was read without them, or the read's error; one still there is left out, to the change planned
 * for it. A delete missing from the verifying plan is never counted as gone.
 */
export async function deletedAgain(
  deleted: readonly Change[],
  planned: readonly Change[],
  state: (change: Change) => DeletedState | Promise<DeletedState>,
  same: (a: string, b: string) => boolean = (a, b) => a === b,
): Promise<Change[]> {
  const again: Change[] = [];
  for (const change of deleted) {
    if (planned.some((other) => same(other.name, change.name))) continue;
    const seen = await state(change);
    if (seen === "listed") continue;
    const gone = newChange(change.target, change.scope, change.kind, change.name);
    again.push(
      seen === "gone" ? { ...gone, live_fingerprint: fingerprint(null) } : { ...gone, error: seen },
    );
  }
  return again;
}

/** Plans a collection (see the module's comment). */
export async function planCollection<D, L>(collection: Collection<D, L>): Promise<Change[]> {
  const { reader, scope, kind, members, mode } = collection;
  const prefix = collection.prefix ?? "";
  const deleted = collection.deleted ?? [];
  if (mode === "additive" && members.length === 0 && deleted.length === 0) return [];
  const canonical = collection.canonical ?? ((name: string) => name);
  const same = (a: string, b: string) =>
    a === b ||
    (a.startsWith(prefix) &&
      b.startsWith(prefix) &&
      canonical(a.slice(prefix.length)) === canonical(b.slice(prefix.length)));
  const named = (name: string) => newChange(reader.target, scope, kind, `${prefix}${name}`);
  const listing = await collection.list();
  if (listing.kind === "error" || (listing.kind === "absent" && !collection.absentNote)) {
    const error = listingError(listing, reader, scope, collection.path);
    const planned = [
      ...unlistedStar(collection, prefix, mode, error),
      ...members.map((member) => ({ ...named(member.name), error })),
    ];
    return [...planned, ...(await deletedAgain(deleted, planned, () => error, same))];
  }
  const live: readonly L[] = listing.kind === "found" ? listing.data : [];
  const byName = new Map<string, L>();
  for (const member of live) {
    const key = canonical(collection.nameOf(member));
    if (!byName.has(key)) byName.set(key, member);
  }
  const match =
    collection.match ??
    ((member: Member<D>): Match<L> => ({ live: byName.get(canonical(member.name)) }));
  const matched = new Set<L>();
  const note = listing.kind === "absent" ? collection.absentNote : undefined;
  const planned: Change[] = await Promise.all(
    members.map(async (member) => {
      const found = match(member, live);
      if ("error" in found) return { ...named(member.name), error: found.error };
      if (found.live !== undefined) matched.add(found.live);
      const part = await collection.plan(member, found.live, live);
      if (note === undefined || part.action !== "create") return { ...named(member.name), ...part };
      return { ...named(member.name), ...part, notes: [...(part.notes ?? []), note] };
    }),
  );
  if (mode === "authoritative")
    planned.push(...(await removals(collection, live, matched, prefix)));
  const state = (change: Change): DeletedState => {
    if (collection.stillListed !== undefined) {
      return collection.stillListed(change, live) ? "listed" : "gone";
    }
    const listed = live.some((member) =>
      same(`${prefix}${collection.nameOf(member)}`, change.name),
    );
    return listed ? "listed" : "gone";
  };
  return [...planned, ...(await deletedAgain(deleted, planned, state, same))];
}

/** The `*` change that stands for what an authoritative collection would delete, unknown. */
function unlistedStar<D, L>(
  collection: Collection<D, L>,
  prefix: string,
  mode: Mode,
  error: ChangeError,
): Change[] {
  const style = collection.unlisted ?? "noted";
  if (mode !== "authoritative" || style === "none") return [];
  const star = {
    ...newChange(collection.reader.target, collection.scope, collection.kind, `${prefix}*`),
    error,
  };
  if (style === "bare") return [star];
  return [
    { ...star, notes: [`${collection.what} authoritative mode would delete could not be listed`] },
  ];
}

/** Authoritative mode's changes of the live members nothing written keeps, in the listing's order. */
async function removals<D, L>(
  collection: Collection<D, L>,
  live: readonly L[],
  matched: ReadonlySet<L>,
  prefix: string,
): Promise<Change[]> {
  const { reader, scope, kind } = collection;
  const kept = collection.kept ?? ((member: L) => matched.has(member));
  const removed = live.filter((member) => !kept(member, live));
  const { remove } = collection;
  if (remove === undefined) {
    if (removed.length === 0) return [];
    throw new Error(
      `the ${kind} collection at ${collection.path} is authoritative but removes nothing`,
    );
  }
  const removal: Removal = {
    collection: collectionOf(reader.target, scope, kind, prefix),
    live: collection.size?.(live) ?? live.length,
  };
  const changes = await Promise.all(removed.map((member) => remove(member, removed)));
  return changes.flatMap((planned) => {
    if (planned === undefined) return [];
    const change = {
      ...newChange(reader.target, scope, kind, `${prefix}${planned.name}`),
      ...planned.change,
    };
    return [change.action === "delete" ? { ...change, removal } : change];
  });
}
