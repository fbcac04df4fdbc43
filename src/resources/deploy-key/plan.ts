import type { Change, PlannedRequest } from "../../core/plan.js";
import { type Match, planCollection } from "../collection.js";
import { repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import {
  type CanonicalDeployKey,
  DEPLOY_KEY_SHAPE,
  fingerprintOf,
  fromRead,
  type ReadDeployKey,
} from "./canonical.js";
import type { DeployKeys, DeployKeySettings } from "./settings.js";

/**
 * A repository's deploy keys, keyed by the SHA256 fingerprint of each public key. GitHub has no
 * update for a deploy key ("Deploy keys are immutable. If you need to update a key, remove the key
 * and create a new one instead", the spec's description of `DELETE /repos/{owner}/{repo}/keys/{key_id}`):
 * a retitled key, or one whose `read_only` changed, is one change whose requests are the DELETE of
 * the live key and the POST of the new one. A key written whose fingerprint is not live but whose
 * title a live key not written has is that key rotated: one replacement, the old key deleted and the
 * new one created. `mode: authoritative` deletes the keys not written, each a removal.
 */

const KIND = "deploy_key";

export const keysPath = (repo: RepoRef) => `${repoPath(repo)}/keys`;

function create(path: string, settings: DeployKeySettings): PlannedRequest {
  // read_only is always sent: GitHub makes a key that may push when it is left out.
  return {
    method: "POST",
    path,
    body: {
      title: settings.title,
      key: settings.key.trim(),
      read_only: settings.read_only ?? true,
    },
  };
}

function desiredOf(settings: DeployKeySettings): CanonicalDeployKey & { fingerprint: string } {
  return {
    fingerprint: fingerprintOf(settings.key) ?? "",
    title: settings.title,
    read_only: settings.read_only ?? true,
  };
}

function liveOf(live: ReadDeployKey): CanonicalDeployKey & { fingerprint: string } {
  return { fingerprint: fingerprintOf(live.key) ?? "", ...fromRead(live) };
}

function planKey(
  path: string,
  settings: DeployKeySettings,
  live: ReadDeployKey | undefined,
): Partial<Change> {
  const desired = desiredOf(settings);
  if (live === undefined) {
    return {
      action: "create",
      diff: diffValues({}, desired),
      requests: [create(path, settings)],
      live_fingerprint: fingerprint(null),
    };
  }
  const canonical = liveOf(live);
  const diff = diffValues(canonical, desired);
  if (diff.length === 0) return { live_fingerprint: fingerprint(canonical) };
  const rotated = canonical.fingerprint !== desired.fingerprint;
  return {
    action: "update",
    diff,
    requests: [{ method: "DELETE", path: `${path}/${live.id}` }, create(path, settings)],
    live_fingerprint: fingerprint(canonical),
    notes: [
      rotated
        ? `rotated: the key titled ${live.title} (${canonical.fingerprint}) is deleted and the new one created; until the create succeeds the repository has neither`
        : "replaced: GitHub has no update for a deploy key (a retitle or a change of read_only), so it is deleted and created again; if the create fails, the key is gone until the next apply",
    ],
  };
}

export function planDeployKeys(input: {
  reader: ResourceReader;
  repo: RepoRef;
  value: DeployKeys;
  deleted: readonly Change[];
}): Promise<Change[]> {
  const { reader, repo, value, deleted } = input;
  const path = keysPath(repo);
  const keys = value.keys ?? [];
  const written = new Set(keys.map((item) => fingerprintOf(item.key)));
  return planCollection({
    reader,
    scope: `${repo.owner}/${repo.name}`,
    kind: KIND,
    what: "the deploy keys",
    mode: value.mode ?? "additive",
    members: keys.map((settings) => ({
      name: fingerprintOf(settings.key) ?? "",
      desired: settings,
    })),
    path,
    list: () => reader.list(path, undefined, DEPLOY_KEY_SHAPE),
    nameOf: (live) => fingerprintOf(live.key) ?? `id ${live.id}`,
    // By fingerprint; else a live key of the same title that no key written is: the key rotated.
    match: (member, live): Match<ReadDeployKey> => {
      const same = live.find((item) => fingerprintOf(item.key) === member.name);
      if (same !== undefined) return { live: same };
      const titled = live.filter(
        (item) => item.title === member.desired.title && !written.has(fingerprintOf(item.key)),
      );
      // Two new keys of one title: which one replaces the old key cannot be told.
      const rivals = keys.filter(
        (item) =>
          item.title === member.desired.title &&
          !live.some((other) => fingerprintOf(other.key) === fingerprintOf(item.key)),
      );
      return { live: titled.length === 1 && rivals.length === 1 ? titled[0] : undefined };
    },
    plan: ({ desired }, live) => planKey(path, desired, live),
    remove: (live) => ({
      name: fingerprintOf(live.key) ?? `id ${live.id}`,
      change: {
        action: "delete",
        diff: diffValues(liveOf(live), {}),
        requests: [{ method: "DELETE", path: `${path}/${live.id}` }],
        live_fingerprint: fingerprint(liveOf(live)),
        notes: ["not in the desired state (deploy_keys mode: authoritative)"],
      },
    }),
    deleted,
  });
}
