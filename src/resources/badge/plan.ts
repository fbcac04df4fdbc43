import type { Change } from "../../core/plan.js";
import { planCollection } from "../collection.js";
import type { ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { BADGE_SHAPE, type CanonicalBadge, fromRead, type ReadBadge } from "./canonical.js";
import type { Badges } from "./settings.js";

/**
 * Plans the badges of a project or a group (`path`: `/api/v4/projects/:id/badges` or
 * `/api/v4/groups/:id/badges`) against one listing, keyed by name as written. GitLab edits a badge
 * in place (`PUT …/badges/:badge_id`). A project's listing also shows its groups' badges
 * (`kind: group`): those belong to the group and are never written, matched or removed here. A
 * badge without a name is addressed by its id (`#12`) for an authoritative list's delete.
 */

const KIND = "badge";

function nameOf(badge: ReadBadge): string {
  return badge.name ?? `#${badge.id}`;
}

function deletion(path: string, live: ReadBadge, note: string): Partial<Change> {
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
  name: string,
  desired: CanonicalBadge | null,
  live: ReadBadge | undefined,
): Partial<Change> {
  if (desired === null) {
    if (live === undefined) return { live_fingerprint: fingerprint(null) };
    return deletion(path, live, "null in the desired state");
  }
  const wanted = { link_url: desired.link_url, image_url: desired.image_url };
  if (live === undefined) {
    return {
      action: "create",
      diff: diffValues({}, wanted),
      requests: [{ method: "POST", path, body: { name, ...wanted } }],
      live_fingerprint: fingerprint(null),
    };
  }
  const canonical = fromRead(live);
  const diff = diffValues(canonical, wanted);
  if (diff.length === 0) return { live_fingerprint: fingerprint(canonical) };
  return {
    action: "update",
    diff,
    requests: [{ method: "PUT", path: `${path}/${live.id}`, body: { name, ...wanted } }],
    live_fingerprint: fingerprint(canonical),
  };
}

export function planBadges(input: {
  reader: ResourceReader;
  scope: string;
  /** The badges' listing and create path. */
  path: string;
  /** The kind of badge this place owns: `project` or `group`. */
  own: ReadBadge["kind"];
  value: Badges;
  deleted: readonly Change[];
}): Promise<Change[]> {
  const { reader, scope, path, own, value, deleted } = input;
  return planCollection<CanonicalBadge | null, ReadBadge>({
    reader,
    scope,
    kind: KIND,
    what: `the badges of ${scope}`,
    mode: value.mode ?? "additive",
    members: Object.entries(value.items ?? {}).map(([name, desired]) => ({ name, desired })),
    path,
    list: async () => {
      const listed = await reader.list(path, undefined, BADGE_SHAPE);
      return listed.kind === "found"
        ? { ...listed, data: listed.data.filter((badge) => badge.kind === own) }
        : listed;
    },
    nameOf,
    plan: ({ name, desired }, live) => planItem(path, name, desired, live),
    remove: (badge) => ({
      name: nameOf(badge),
      change: deletion(path, badge, "not in the desired state (badges mode: authoritative)"),
    }),
    deleted,
  });
}
