/**
 * Plans the groups a GitLab project or group is shared with, read from its own answer
 * (`shared_with_groups`) and keyed by the invited group's full path, in any case:
 *
 * - a new share is one `POST …/share` naming the group by id (read by its path first: a group that
 *   does not exist is an error at plan time, not GitLab's 404 at apply);
 * - GitLab has no update of a share (a project's share has POST and DELETE only: "Projects API",
 *   "Share a project with a group", "Delete a shared project link in a group"; a group's likewise),
 *   so a changed level or expiry is a replacement, one change whose requests are the DELETE, then
 *   the POST; apply stops at the first that fails, and a POST refused after its DELETE shows in the
 *   next plan as a create;
 * - a share written null, or not listed under `mode: authoritative`, is one DELETE (capped as every
 *   removal is);
 * - a project is never shared with the group it lives in or one above it: GitLab refuses it
 *   ("Project cannot be shared with the group it is in or one of its ancestors."), and a group is
 *   not shared with itself.
 */
import type { Change, ChangeError } from "../../core/plan.js";
import { planCollection } from "../collection.js";
import { changeError, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { levelName, levelNumber } from "../gitlab-access-levels.js";
import { groupPath } from "../gitlab-paths.js";
import {
  type CanonicalShare,
  canonicalLive,
  expiryOf,
  groupAnswer,
  type LiveShare,
  sharedAnswer,
} from "./canonical.js";
import type { Shares, WrittenShare } from "./settings.js";

export const KIND = "shared_with_groups";

export interface SharePlace {
  reader: ResourceReader;
  scope: string;
  /** `/api/v4/projects/<id>` or `/api/v4/groups/<id>`. */
  base: string;
  what: "project" | "group";
  /** The full paths a share may not name (a project's groups; a group itself), lower case. */
  refused: readonly string[];
}

/** The full paths of a group and every group above it (`acme/platform` → it and `acme`). */
export function withAncestors(path: string): string[] {
  const parts = path.toLowerCase().split("/");
  return parts.map((_, index) => parts.slice(0, index + 1).join("/"));
}

interface Wanted {
  level: number;
  expires?: string | null;
}

function wantedOf(written: WrittenShare): Wanted {
  if (typeof written === "object") {
    const wanted: Wanted = { level: levelNumber(written.group_access) };
    if (written.expires_at !== undefined) wanted.expires = written.expires_at;
    return wanted;
  }
  return { level: levelNumber(written) };
}

function shown(wanted: Wanted): CanonicalShare {
  const share: CanonicalShare = { group_access: levelName(wanted.level) };
  if (wanted.expires !== undefined) share.expires_at = wanted.expires;
  return share;
}

function deletion(place: SharePlace, live: LiveShare, note: string): Partial<Change> {
  const before = canonicalLive(live, true);
  return {
    action: "delete",
    diff: diffValues(before, {}),
    requests: [{ method: "DELETE", path: `${place.base}/share/${live.group_id}` }],
    live_fingerprint: fingerprint(before),
    notes: [note],
  };
}

function post(place: SharePlace, groupId: number, level: number, expires: string | null) {
  const body: Record<string, unknown> = { group_id: groupId, group_access: level };
  if (expires !== null) body.expires_at = expires;
  return { method: "POST" as const, path: `${place.base}/share`, body };
}

/** The id of the group a new share names, or the plan-time error that there is none. */
async function groupId(
  place: SharePlace,
  written: string,
): Promise<{ id: number } | { error: ChangeError }> {
  const path = groupPath(written);
  const read = await place.reader.getOrAbsent(path, groupAnswer);
  if (read.kind === "found") return { id: read.data.id };
  if (read.kind === "error") return { error: read.error };
  return {
    error: {
      ...changeError(
        `group ${written} does not exist (or ${place.reader.credential} cannot see it): ${place.scope} cannot be shared with it`,
        "GET",
        path,
        404,
      ),
      field: ["groups", written],
    },
  };
}

async function planShare(
  place: SharePlace,
  written: string,
  desired: WrittenShare | null,
  live: LiveShare | undefined,
): Promise<Partial<Change>> {
  if (desired === null) {
    if (live === undefined) return { live_fingerprint: fingerprint(null) };
    return deletion(place, live, "null in the desired state");
  }
  const wanted = wantedOf(desired);
  if (live === undefined) {
    if (place.refused.includes(written.toLowerCase())) {
      return {
        error: {
          ...changeError(
            place.what === "project"
              ? `${place.scope} lives in ${written}: GitLab refuses to share a project with the group it is in or one of its ancestors`
              : `a group is not shared with itself`,
          ),
          field: ["groups", written],
        },
      };
    }
    const found = await groupId(place, written);
    if ("error" in found) return { error: found.error };
    return {
      action: "create",
      diff: diffValues({}, shown(wanted)),
      requests: [post(place, found.id, wanted.level, wanted.expires ?? null)],
      live_fingerprint: fingerprint(null),
    };
  }
  const before = canonicalLive(live, wanted.expires !== undefined);
  const diff = diffValues(before, shown(wanted));
  if (diff.length === 0) return { live_fingerprint: fingerprint(before) };
  const expires = wanted.expires === undefined ? expiryOf(live) : wanted.expires;
  return {
    action: "update",
    diff,
    requests: [
      { method: "DELETE", path: `${place.base}/share/${live.group_id}` },
      post(place, live.group_id, wanted.level, expires),
    ],
    live_fingerprint: fingerprint(before),
    notes: [
      `replaced: GitLab has no update of a share, so it is deleted and made again; if the new share is refused, ${place.scope} is not shared with ${written} until the next apply`,
    ],
  };
}

/** Plans the shares of one project or group. */
export function planShares(
  place: SharePlace,
  value: Shares,
  deleted: readonly Change[],
): Promise<Change[]> {
  const written = (lower: string) =>
    Object.keys(value.groups ?? {}).find((path) => path.toLowerCase() === lower) ?? lower;
  // A project written by its id learns its groups from its answer.
  let at = place;
  return planCollection<WrittenShare | null, LiveShare>({
    reader: place.reader,
    scope: place.scope,
    kind: KIND,
    what: `the groups ${place.scope} is shared with`,
    mode: value.mode ?? "additive",
    members: Object.entries(value.groups ?? {}).map(([path, desired]) => ({
      name: path.toLowerCase(),
      desired,
    })),
    path: place.base,
    list: async () => {
      const read = await place.reader.getOrAbsent(
        place.base,
        sharedAnswer(place.what === "project" ? "a project" : "a group"),
      );
      if (read.kind !== "found") return read;
      const home = read.data.namespace?.full_path;
      if (place.what === "project" && home !== undefined) {
        at = { ...place, refused: withAncestors(home) };
      }
      return { kind: "found", data: read.data.shared_with_groups };
    },
    nameOf: (share) => share.group_full_path,
    canonical: (path) => path.toLowerCase(),
    plan: ({ name, desired }, live) => planShare(at, written(name), desired, live),
    remove: (live) => ({
      name: live.group_full_path.toLowerCase(),
      change: deletion(
        place,
        live,
        `${live.group_full_path} is not in the desired state (shared_with_groups mode: authoritative)`,
      ),
    }),
    deleted,
  });
}
