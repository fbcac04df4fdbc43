import { type Change, type ChangeError, CREATED_ID, type PlannedRequest } from "../../core/plan.js";
import { planCollection } from "../collection.js";
import { changeError, type ReadResult, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import {
  type CanonicalKey,
  fromRead,
  INSTANCE_KEY_SHAPE,
  instant,
  PROJECT_KEY_SHAPE,
  type ReadInstanceKey,
  type ReadProjectKey,
} from "./canonical.js";
import type { DeployKeys, DeployKeySettings } from "./settings.js";
import { sha256Fingerprint } from "./ssh-key.js";

/**
 * Plans a project's deploy keys (doc/api/deploy_keys.md) against one listing. Written by title,
 * known by fingerprint: a key whose fingerprint is enabled in the project is that key (its title
 * and `can_push` are edited in place, `PUT …/deploy_keys/:key_id`); a key under a title whose live
 * key has another fingerprint is a rotation, replaced by removing the old key and adding the new
 * one (GitLab edits no key). GitLab edits no expiry either, so an expiry that differs is a
 * replacement too.
 *
 * A key not yet in the project may already be on the instance (enabled in another project, or an
 * administrator's public key). GitLab shares such a key rather than storing it twice: the
 * administrators' listing (`GET /deploy_keys`, which GitLab.com does not serve) finds it by its
 * fingerprint, and the plan enables it (`POST …/deploy_keys/:key_id/enable`), then sets its title
 * and `can_push` where they differ. Without that listing (403 or 404 for a token that is not an
 * administrator's) the plan adds the key, which GitLab answers by joining a key the token can
 * reach to the project (docs, "Add deploy key": "If the deploy key already exists in another
 * project, it's joined to the current project only if the original one is accessible by the same
 * user").
 */

const KIND = "gitlab_deploy_key";

interface Wanted {
  desired: DeployKeySettings;
  canonical: CanonicalKey;
}

function wantedOf(title: string, desired: DeployKeySettings): Wanted {
  return {
    desired,
    canonical: {
      title,
      fingerprint: sha256Fingerprint(desired.key) ?? desired.key,
      can_push: desired.can_push ?? false,
      expires_at: instant(desired.expires_at),
    },
  };
}

/** The instance's deploy keys by fingerprint, read once a plan needs them; `undefined`: not served. */
type InstanceKeys = ReadResult<ReadonlyMap<string, ReadInstanceKey>> | { kind: "unserved" };

function instanceKeys(reader: ResourceReader): () => Promise<InstanceKeys> {
  let read: Promise<InstanceKeys> | undefined;
  return () =>
    (read ??= (async (): Promise<InstanceKeys> => {
      const listed = await reader.list("/api/v4/deploy_keys", undefined, INSTANCE_KEY_SHAPE);
      if (listed.kind === "absent") return { kind: "unserved" };
      if (listed.kind === "error")
        return listed.error.status === 403 ? { kind: "unserved" } : listed;
      return {
        kind: "found",
        data: new Map(listed.data.map((key) => [key.fingerprint_sha256, key])),
      };
    })());
}

function deletion(path: string, live: ReadProjectKey, note: string): Partial<Change> {
  const canonical = fromRead(live);
  return {
    action: "delete",
    diff: diffValues(canonical, {}),
    requests: [{ method: "DELETE", path: `${path}/${live.id}` }],
    live_fingerprint: fingerprint(canonical),
    notes: [
      note,
      "GitLab deletes a deploy key no other project uses, and only unlinks one that others do",
    ],
  };
}

/** The requests that put a key not in the project there: an enable, or an add. */
async function addition(
  path: string,
  wanted: Wanted,
  instance: () => Promise<InstanceKeys>,
): Promise<{ requests: PlannedRequest[]; notes: string[] } | { error: ChangeError }> {
  const { canonical, desired } = wanted;
  const found: InstanceKeys = await instance();
  if (found.kind === "error") return { error: found.error };
  const shared = found.kind === "found" ? found.data.get(canonical.fingerprint) : undefined;
  if (shared === undefined) {
    const body: Record<string, unknown> = {
      title: canonical.title,
      key: desired.key,
      can_push: canonical.can_push,
    };
    if (desired.expires_at !== undefined) body.expires_at = desired.expires_at;
    const requests: PlannedRequest[] = [{ method: "POST", path, body }];
    if (found.kind === "found") return { requests, notes: [] };
    // The key may be joined rather than made, keeping its own title: the edit that follows sets it.
    requests.push({
      method: "PUT",
      path: `${path}/${CREATED_ID}`,
      body: { title: canonical.title, can_push: canonical.can_push },
    });
    const notes = [
      "the instance's deploy keys are listed to administrators only: GitLab joins a key already on the instance that the token can reach instead of adding it again, so its title is set after",
    ];
    return { requests, notes };
  }
  if (instant(shared.expires_at) !== canonical.expires_at) {
    return {
      error: changeError(
        `deploy key ${shared.id} ('${shared.title}') is on the instance already with expires_at ${shared.expires_at ?? "null"}: GitLab keeps one expiry per key for every project it is enabled in`,
        "GET",
        "/api/v4/deploy_keys",
        200,
      ),
    };
  }
  const requests: PlannedRequest[] = [{ method: "POST", path: `${path}/${shared.id}/enable` }];
  if (shared.title !== canonical.title || canonical.can_push) {
    requests.push({
      method: "PUT",
      path: `${path}/${shared.id}`,
      body: { title: canonical.title, can_push: canonical.can_push },
    });
  }
  const notes = [
    `deploy key ${shared.id} is on the instance already: it is enabled, not added again`,
  ];
  if (shared.title !== canonical.title)
    notes.push("a deploy key's title is the key's, shown in every project it is enabled in");
  return { requests, notes };
}

/** The fingerprints of the keys written. */
function writtenPrints(items: Record<string, DeployKeySettings | null>): Set<string> {
  return new Set(
    Object.values(items).flatMap((item) =>
      item === null ? [] : [sha256Fingerprint(item.key) ?? item.key],
    ),
  );
}

/**
 * The live key a written one is about: by fingerprint; a `null` one by its title, unless a key
 * written under another title is that key (a retitle, not a removal).
 */
function matchOf(
  title: string,
  desired: DeployKeySettings | null,
  live: readonly ReadProjectKey[],
  written: ReadonlySet<string>,
) {
  if (desired === null)
    return live.find((key) => key.title === title && !written.has(key.fingerprint_sha256));
  const wanted = sha256Fingerprint(desired.key);
  return live.find((key) => key.fingerprint_sha256 === wanted);
}

/**
 * The live key a written one replaces: its title's, when no written key has that key's
 * fingerprint and the written one matched none.
 */
function replacedBy(
  items: Record<string, DeployKeySettings | null>,
  live: readonly ReadProjectKey[],
): Map<ReadProjectKey, string> {
  const written = writtenPrints(items);
  const replaced = new Map<ReadProjectKey, string>();
  for (const [title, desired] of Object.entries(items)) {
    if (desired === null || matchOf(title, desired, live, written) !== undefined) continue;
    const old = live.find(
      (key) => key.title === title && !written.has(key.fingerprint_sha256) && !replaced.has(key),
    );
    if (old !== undefined) replaced.set(old, title);
  }
  return replaced;
}

/**
 * A key whose expiry changes, removed and added again with it: GitLab edits no expiry. It is added
 * by its text, as the instance's copy of it is the one removed (GitLab deletes a key no other
 * project uses); a key other projects use keeps its expiry, which the answer shows.
 */
function renewal(
  path: string,
  wanted: Wanted,
  live: ReadProjectKey,
  diff: Change["diff"],
  before: string,
): Partial<Change> {
  const { canonical, desired } = wanted;
  const body: Record<string, unknown> = {
    title: canonical.title,
    key: desired.key,
    can_push: canonical.can_push,
  };
  if (desired.expires_at !== undefined) body.expires_at = desired.expires_at;
  return {
    action: "update",
    diff,
    requests: [
      { method: "DELETE", path: `${path}/${live.id}` },
      { method: "POST", path, body },
    ],
    live_fingerprint: before,
    notes: [
      "GitLab edits no deploy key's expiry: the key is removed and added again with it (a key other projects use keeps its expiry, which the answer shows)",
    ],
  };
}

export function planDeployKeys(input: {
  reader: ResourceReader;
  scope: string;
  /** `/api/v4/projects/:id/deploy_keys`. */
  path: string;
  value: DeployKeys;
  deleted: readonly Change[];
}): Promise<Change[]> {
  const { reader, scope, path, value, deleted } = input;
  const items = value.items ?? {};
  const instance = instanceKeys(reader);
  const written = writtenPrints(items);
  return planCollection<DeployKeySettings | null, ReadProjectKey>({
    reader,
    scope,
    kind: KIND,
    what: `the deploy keys of ${scope}`,
    mode: value.mode ?? "additive",
    members: Object.entries(items).map(([name, desired]) => ({ name, desired })),
    path,
    list: () => reader.list(path, undefined, PROJECT_KEY_SHAPE),
    nameOf: (key) => key.title,
    match: ({ name, desired }, live) => ({ live: matchOf(name, desired, live, written) }),
    kept: (key, listed) =>
      Object.entries(items).some(
        ([title, desired]) => matchOf(title, desired, listed, written) === key,
      ) || replacedBy(items, listed).has(key),
    plan: async ({ name, desired }, live, listed) => {
      if (desired === null) {
        if (live === undefined) return { live_fingerprint: fingerprint(null) };
        return deletion(path, live, "null in the desired state");
      }
      const wanted = wantedOf(name, desired);
      const old = live ?? [...replacedBy(items, listed)].find(([, title]) => title === name)?.[0];
      const canonical = old === undefined ? undefined : fromRead(old);
      const diff = diffValues(canonical ?? {}, wanted.canonical);
      const before = fingerprint(canonical ?? null);
      if (old !== undefined && diff.length === 0) return { live_fingerprint: before };
      if (live !== undefined && canonical!.expires_at === wanted.canonical.expires_at) {
        return {
          action: "update",
          diff,
          requests: [
            {
              method: "PUT",
              path: `${path}/${live.id}`,
              body: { title: name, can_push: wanted.canonical.can_push },
            },
          ],
          live_fingerprint: before,
        };
      }
      if (live !== undefined) return renewal(path, wanted, live, diff, before);
      const added = await addition(path, wanted, instance);
      if ("error" in added) return { error: added.error };
      if (old === undefined) {
        return {
          action: "create",
          diff,
          requests: added.requests,
          live_fingerprint: before,
          ...(added.notes.length > 0 ? { notes: added.notes } : {}),
        };
      }
      // The new key goes in before the old one goes, so the project is never without one.
      return {
        action: "update",
        diff,
        requests: [...added.requests, { method: "DELETE", path: `${path}/${old.id}` }],
        live_fingerprint: before,
        notes: [
          "a rotated key is replaced: GitLab edits no deploy key's key, so the new one is added and the old one removed",
          ...added.notes,
        ],
      };
    },
    remove: (key) => ({
      name: key.title,
      change: deletion(path, key, "not in the desired state (deploy_keys mode: authoritative)"),
    }),
    deleted,
  });
}
