import type { Change, PlannedRequest } from "../../core/plan.js";
import { planCollection } from "../collection.js";
import { repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import {
  AUTOLINK_SHAPE,
  type CanonicalAutolink,
  fromRead,
  type ReadAutolink,
} from "./canonical.js";
import type { AutolinkSettings, Autolinks } from "./settings.js";

/**
 * Plans a repository's autolinks against one listing of them, keyed by key prefix as written.
 * GitHub has no update for an autolink: a changed one is replaced, one change whose requests are
 * the DELETE of the live autolink, then the POST of the new one. Apply sends them in order and stops
 * at the first that fails, and its report names the request that failed and those carried out
 * before it: a POST refused after its DELETE leaves the prefix without an autolink, which the next
 * plan shows as a create.
 */

const KIND = "autolink";

export function autolinksPath(repo: RepoRef): string {
  return `${repoPath(repo)}/autolinks`;
}

function createRequest(path: string, prefix: string, desired: CanonicalAutolink): PlannedRequest {
  return { method: "POST", path, body: { key_prefix: prefix, ...desired } };
}

function deletion(path: string, live: ReadAutolink, note: string): Partial<Change> {
  const canonical = fromRead(live);
  return {
    action: "delete",
    diff: diffValues(canonical, {}),
    requests: [{ method: "DELETE", path: `${path}/${live.id}` }],
    live_fingerprint: fingerprint(canonical),
    notes: [note],
  };
}

function planItem(
  path: string,
  prefix: string,
  settings: AutolinkSettings | null,
  live: ReadAutolink | undefined,
): Partial<Change> {
  if (settings === null) {
    if (live === undefined) return { live_fingerprint: fingerprint(null) };
    return deletion(path, live, "null in the desired state");
  }
  const desired: CanonicalAutolink = {
    url_template: settings.url_template ?? "",
    // "default": true in GitHub's request schema for the create.
    is_alphanumeric: settings.is_alphanumeric ?? true,
  };
  if (live === undefined) {
    return {
      action: "create",
      diff: diffValues({}, desired),
      requests: [createRequest(path, prefix, desired)],
      live_fingerprint: fingerprint(null),
    };
  }
  const canonical = fromRead(live);
  const diff = diffValues(canonical, desired);
  if (diff.length === 0) return { live_fingerprint: fingerprint(canonical) };
  return {
    action: "update",
    diff,
    requests: [
      { method: "DELETE", path: `${path}/${live.id}` },
      createRequest(path, prefix, desired),
    ],
    live_fingerprint: fingerprint(canonical),
    notes: [
      "replaced: GitHub has no update for an autolink, so it is deleted and created again; if the create fails, the prefix has no autolink until the next apply",
    ],
  };
}

export interface AutolinkPlanInput {
  reader: ResourceReader;
  repo: RepoRef;
  value: Autolinks;
  /** When the plan verifies an apply: the autolinks of this repository it deleted. */
  deleted: readonly Change[];
}

export function planAutolinks({
  reader,
  repo,
  value,
  deleted,
}: AutolinkPlanInput): Promise<Change[]> {
  const path = autolinksPath(repo);
  return planCollection({
    reader,
    scope: `${repo.owner}/${repo.name}`,
    kind: KIND,
    what: "the autolinks",
    mode: value.mode ?? "additive",
    members: Object.entries(value.items ?? {}).map(([name, desired]) => ({ name, desired })),
    path,
    list: () => reader.list(path, undefined, AUTOLINK_SHAPE),
    nameOf: (autolink) => autolink.key_prefix,
    plan: ({ name, desired }, live) => planItem(path, name, desired, live),
    remove: (autolink) => ({
      name: autolink.key_prefix,
      change: deletion(path, autolink, "not in the desired state (autolinks mode: authoritative)"),
    }),
    deleted,
  });
}
