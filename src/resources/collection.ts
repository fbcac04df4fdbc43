/**
 * What the kinds of keyed collections (labels, autolinks) share: the error of a listing that
 * failed, the `*` change that stands for what authoritative mode would delete, the collection a
 * removal belongs to, and the deletes of an apply planned again by the plan that verifies it.
 */
import * as z from "zod";
import type { PrintBlock } from "../config/spec.js";
import {
  addressOf,
  type Change,
  type ChangeError,
  newChange,
  unlistedChange,
} from "../core/plan.js";
import { changeError, type ReadResult, type ResourceReader } from "./context.js";
import { fingerprint } from "./fingerprint.js";

/** A collection's `mode`: whether the members it does not list are left alone or deleted. */
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

/** The collection a removal counts in, by a name unique in the plan: `github/acme/api/label`. */
export function collectionOf(target: string, scope: string, kind: string): string {
  return addressOf(target, scope, kind, "").slice(0, -1);
}

/** Why a listing that was not found failed: its error, or the repository it could not see. */
export function listingError(
  listed: Exclude<ReadResult<unknown>, { kind: "found" }>,
  reader: ResourceReader,
  scope: string,
  path: string,
): ChangeError {
  if (listed.kind === "error") return listed.error;
  return changeError(
    `repository ${scope} was not found (or ${reader.credential} cannot see it)`,
    "GET",
    path,
    404,
  );
}

/**
 * A collection that could not be listed: each named member carries the error, and in authoritative
 * mode one `*` change stands for the members it would delete, which are unknown — never "no change".
 */
export function unlistedMembers(
  reader: ResourceReader,
  scope: string,
  kind: string,
  names: readonly string[],
  authoritative: boolean,
  error: ChangeError,
): Change[] {
  const all: Change[] = authoritative
    ? [
        {
          ...unlistedChange(reader.target, scope, kind, error),
          notes: [`the ${kind}s authoritative mode would delete could not be listed`],
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
