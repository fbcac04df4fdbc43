import type { ScopedEntry } from "../config/model.js";
import type { ChangeError } from "../core/plan.js";
import { changeError, type ReadResult, type ResourceReader } from "../resources/context.js";

/** A read that either found what it read or failed: "absent" has been given its meaning. */
export type Listing<T> = Exclude<ReadResult<T>, { kind: "absent" }>;

/** What a glob's listing found: a repository or project, by owner and name, and whether archived. */
export interface Listed {
  /** The account, or the namespace's full path. */
  owner: string;
  name: string;
  archived: boolean;
  /**
   * The listing's item, where it is what a read of the place itself answers (GitLab's group
   * projects listing: ./project-listing.ts), for bulk reads to answer that read with.
   */
  answer?: unknown;
}

/**
 * Lists the candidates of a glob entry on the service: what its owner (an account, or a group and
 * its subgroups) holds that the entry's conditions other than its name allow. Which of them its
 * pattern selects is decided by the caller.
 */
export type GlobLister = (entry: ScopedEntry, reader: ResourceReader) => Promise<Listing<Listed[]>>;

/** The key of an owner of one target (an account, a group's full path): names are case-insensitive. */
export const ownerKey = (target: string, owner: string) => `${target}\u0000${owner.toLowerCase()}`;

/** One read per key: every glob of an owner shares its listings, every owner a reader's login. */
export function memoized<K, T>(reads: Map<K, T>, key: K, read: () => T): T {
  let found = reads.get(key);
  if (found === undefined) {
    found = read();
    reads.set(key, found);
  }
  return found;
}

/** Why a listing could not be used: its error, or what the 404 of its (last) request means. */
export function failure(
  result: Exclude<ReadResult<unknown>, { kind: "found" }>,
  path: string,
  absent: string,
): ChangeError {
  return result.kind === "error" ? result.error : changeError(absent, "GET", path, 404);
}
