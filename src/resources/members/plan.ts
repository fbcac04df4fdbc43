/**
 * Plans a GitLab project's or group's direct members against GitLab's listings, user by user:
 *
 * - the direct members (`GET …/members`) are the collection (`planCollection`): a level or expiry
 *   that differs is one `PUT …/members/:user_id`, a member written null or not listed under
 *   `mode: authoritative` one `DELETE` (capped as every removal is);
 * - a user who is no direct member is looked up among the effective members (`GET
 *   …/members/all`, inherited from the groups above): one who inherits the level written or a
 *   higher one is left as inherited, since GitLab would refuse a direct membership below an
 *   inherited one (app/models/member.rb `higher_access_level_than_group`: "should be greater than
 *   or equal to … inherited membership from group …") and one at the same level adds nothing; one
 *   who inherits a lower level gets a direct membership (`POST …/members`), which GitLab takes;
 * - anyone else must be a GitLab user (`GET /users?username=`), or the plan says so before
 *   anything is sent rather than GitLab's 404 at apply;
 * - a group's last owner is never removed or demoted: GitLab refuses it (403, GroupMemberPolicy's
 *   `last_owner`), so the plan does first;
 * - a custom role (Ultimate, `member_role`) is found by name or id among the roles the place may
 *   use (./roles.ts) and sent as `member_role_id`, following GitLab EE's
 *   MemberRoles::MemberRoleRelation: the member's level must be the role's base access level
 *   ("the custom role's base access level does not match the current access level"), a level may
 *   not change while the role stays ("cannot be changed because of an existing association with a
 *   custom role"), so another level written without `member_role` takes the role away, and
 *   `member_role_id` null does.
 *
 * Inherited members are never written nor removed here; they belong to the group they come from.
 */
import * as z from "zod";
import type { Change, ChangeError } from "../../core/plan.js";
import { planCollection } from "../collection.js";
import { changeError, type ReadResult, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { LEVELS, levelName, levelNumber } from "../gitlab-access-levels.js";
import {
  type CanonicalMember,
  canonicalLive,
  expiryOf,
  type LiveMember,
  memberShape,
  roleOf,
  userShape,
} from "./canonical.js";
import { type MemberRole, readMemberRoles } from "./roles.js";
import type { Members, WrittenMember } from "./settings.js";

export const KIND = "members";

/** Where the members live: a project or a group, by its API path. */
export interface MembersPlace {
  reader: ResourceReader;
  /** The project's or group's path or id as configured (changes are addressed by it). */
  scope: string;
  /** `/api/v4/projects/<id>` or `/api/v4/groups/<id>`. */
  base: string;
  what: "project" | "group";
  /**
   * The API path of the group right above (a project's namespace, a subgroup's parent), null for a
   * top-level group, or how to find it from the place's own answer (a place written by its id).
   */
  above: () => Promise<ReadResult<string | null>>;
  /** The full path of the top-level group the place is under, whose custom roles it may use. */
  top: () => Promise<ReadResult<string>>;
}

/**
 * A member as wanted: GitLab's level, and its expiry and custom role where written (undefined:
 * not managed; the role as written, by name or id, until it is found).
 */
interface Wanted {
  level: number;
  expires?: string | null;
  role?: string | number | null;
}

function wantedOf(written: WrittenMember): Wanted {
  if (typeof written === "object") {
    const wanted: Wanted = { level: levelNumber(written.access_level) };
    if (written.expires_at !== undefined) wanted.expires = written.expires_at;
    if (written.member_role !== undefined) wanted.role = written.member_role;
    return wanted;
  }
  return { level: levelNumber(written) };
}

function shownWanted(wanted: Wanted, role?: MemberRole | null): CanonicalMember {
  const shown: CanonicalMember = { access_level: levelName(wanted.level) };
  if (wanted.expires !== undefined) shown.expires_at = wanted.expires;
  if (role !== undefined) shown.member_role = role?.name ?? null;
  return shown;
}

function nameOfLevel(level: number): string {
  return String(levelName(level));
}

const usersList = { name: "users", schema: z.array(userShape.schema) };

/** The effective members (direct and inherited), by lower-case username, read once. */
function effectiveReader(place: MembersPlace) {
  let read: Promise<ReadResult<Map<string, LiveMember>>> | undefined;
  return () => {
    read ??= place.reader
      .list(`${place.base}/members/all`, undefined, memberShape)
      .then((listed): ReadResult<Map<string, LiveMember>> =>
        listed.kind === "found"
          ? {
              kind: "found",
              data: new Map(listed.data.map((member) => [member.username.toLowerCase(), member])),
            }
          : listed,
      );
    return read;
  };
}

function listingError(
  place: MembersPlace,
  read: Exclude<ReadResult<unknown>, { kind: "found" }>,
  path: string,
): ChangeError {
  if (read.kind === "error") return read.error;
  return changeError(
    `${place.what} ${place.scope} was not found (or ${place.reader.credential} cannot see it)`,
    "GET",
    path,
    404,
  );
}

/** The user a username names, or the plan-time error that it names none. */
async function lookUpUser(
  place: MembersPlace,
  written: string,
): Promise<{ id: number } | { error: ChangeError }> {
  const path = "/api/v4/users";
  const read = await place.reader.getOrAbsent(path, usersList, { username: written });
  if (read.kind !== "found") return { error: listingError(place, read, path) };
  const user = read.data.find((found) => found.username.toLowerCase() === written.toLowerCase());
  if (user !== undefined) return { id: user.id };
  return {
    error: {
      ...changeError(
        `${written} is no GitLab user (GET ${path}?username=${written} found none): it cannot be made a member of ${place.what} ${place.scope}`,
        "GET",
        `${path}?username=${encodeURIComponent(written)}`,
        200,
      ),
      field: ["users", written],
    },
  };
}

function deletion(place: MembersPlace, live: LiveMember, note: string): Partial<Change> {
  const shown = canonicalLive(live, true, roleOf(live) !== null);
  return {
    action: "delete",
    diff: diffValues(shown, {}),
    requests: [{ method: "DELETE", path: `${place.base}/members/${live.id}` }],
    live_fingerprint: fingerprint(shown),
    notes: [note],
  };
}

/**
 * The levels users hold in the groups above the place (`GET <group above>/members/all`), by
 * lower-case username, read once: what a direct member's level may not go below.
 */
function aboveReader(place: MembersPlace) {
  let read: Promise<ReadResult<Map<string, number>>> | undefined;
  return () => {
    read ??= place.above().then(async (above): Promise<ReadResult<Map<string, number>>> => {
      if (above.kind !== "found") return above;
      if (above.data === null) return { kind: "found", data: new Map() };
      const path = `${above.data}/members/all`;
      const listed = await place.reader.list(path, undefined, memberShape);
      if (listed.kind === "absent")
        return { kind: "error", error: listingError(place, listed, path) };
      if (listed.kind === "error") return listed;
      return {
        kind: "found",
        data: new Map(
          listed.data.map((member) => [member.username.toLowerCase(), member.access_level]),
        ),
      };
    });
    return read;
  };
}

/** Whether a group has a group above it (a read error counts as not: GitLab then answers). */
async function subgroup(place: MembersPlace): Promise<boolean> {
  const above = await place.above();
  return above.kind === "found" && above.data !== null;
}

/** The custom roles the place may use, read once, on the first member that names one. */
function rolesReader(place: MembersPlace) {
  let read: Promise<ReadResult<MemberRole[]>> | undefined;
  return () => {
    read ??= place
      .top()
      .then((top) => (top.kind === "found" ? readMemberRoles(place.reader, top.data) : top));
    return read;
  };
}

/**
 * The custom role a member is written with: undefined where not managed, null for none, the role
 * found by id or name, or the plan-time error naming the roles there are.
 */
async function wantedRole(
  p: Planning,
  written: string,
  wanted: Wanted,
  live: LiveMember | undefined,
): Promise<{ role: MemberRole | null | undefined } | { error: ChangeError }> {
  if (wanted.role === undefined || wanted.role === null) return { role: wanted.role };
  const kept = live?.member_role;
  // The role the member has is known from its answer: the roles are read only to change one.
  if (kept != null && (kept.id === wanted.role || kept.name === wanted.role)) {
    return checkedRole(written, wanted, kept);
  }
  const roles = await p.roles();
  if (roles.kind !== "found") {
    return { error: listingError(p.place, roles, `${p.place.base}/members`) };
  }
  const role = roles.data.find((found) =>
    typeof wanted.role === "number" ? found.id === wanted.role : found.name === wanted.role,
  );
  if (role === undefined) {
    const names = roles.data.map((found) => `${found.name} (${found.id})`).join(", ") || "none";
    return {
      error: {
        ...changeError(
          `custom role ${String(wanted.role)} does not exist for ${p.place.what} ${p.place.scope}; its roles: ${names}`,
        ),
        field: ["users", written, "member_role"],
      },
    };
  }
  return checkedRole(written, wanted, role);
}

/** A role found, if the level written is its base level (GitLab's rule), else the error. */
function checkedRole(
  written: string,
  wanted: Wanted,
  role: MemberRole,
): { role: MemberRole } | { error: ChangeError } {
  const field = ["users", written, "member_role"];
  if (role.base_access_level !== wanted.level) {
    return {
      error: {
        ...changeError(
          `custom role ${role.name} has base access level ${nameOfLevel(role.base_access_level)}, not ${nameOfLevel(wanted.level)}: GitLab refuses a member whose level is not its custom role's base level ("the custom role's base access level does not match the current access level")`,
        ),
        field,
      },
    };
  }
  return { role };
}

interface Planning {
  place: MembersPlace;
  effective: ReturnType<typeof effectiveReader>;
  inherited: ReturnType<typeof aboveReader>;
  roles: ReturnType<typeof rolesReader>;
  /** Direct owners this plan removes or demotes (lower-case usernames). */
  ownersLost: Set<string>;
}

async function planMember(
  p: Planning,
  written: string,
  desired: WrittenMember | null,
  live: LiveMember | undefined,
): Promise<Partial<Change>> {
  const { place } = p;
  if (desired === null) {
    if (live !== undefined) {
      if (live.access_level === LEVELS.owner) p.ownersLost.add(written.toLowerCase());
      return deletion(place, live, "null in the desired state");
    }
    const effective = await p.effective();
    if (effective.kind !== "found") {
      return { error: listingError(place, effective, `${place.base}/members/all`) };
    }
    const inherited = effective.data.get(written.toLowerCase());
    if (inherited === undefined) return { live_fingerprint: fingerprint(null) };
    return {
      live_fingerprint: fingerprint({ inherited: inherited.access_level }),
      notes: [
        `${written} is no direct member of ${place.scope}: the ${nameOfLevel(inherited.access_level)} membership is inherited from a group above and is not removed here`,
      ],
    };
  }
  const wanted = wantedOf(desired);
  if (wanted.level === LEVELS.minimal_access && place.what === "group" && (await subgroup(place))) {
    return {
      error: {
        ...changeError(
          `minimal_access (5) is for top-level groups only: GitLab refuses it on subgroup ${place.scope} ("access_level is not included in the list", gitlab-org/gitlab#331012)`,
        ),
        field: ["users", written],
      },
    };
  }
  const found = await wantedRole(p, written, wanted, live);
  if ("error" in found) return { error: found.error };
  let { role } = found;
  if (live !== undefined) {
    const kept = live.member_role;
    // GitLab keeps no other level beside a custom role ("cannot be changed because of an existing
    // association with a custom role"): a level written without `member_role` takes it away.
    if (role === undefined && kept != null && wanted.level !== live.access_level) role = null;
    const before = canonicalLive(live, wanted.expires !== undefined, role !== undefined);
    const after = shownWanted(wanted, role);
    const diff = diffValues(before, after);
    if (diff.length === 0) return { live_fingerprint: fingerprint(before) };
    if (live.access_level === LEVELS.owner && wanted.level < LEVELS.owner) {
      p.ownersLost.add(written.toLowerCase());
    }
    if (wanted.level < live.access_level) {
      const above = await p.inherited();
      if (above.kind !== "found") return { error: listingError(place, above, place.base) };
      const inherited = above.data.get(written.toLowerCase());
      if (inherited !== undefined && inherited > wanted.level) {
        // GitLab refuses a direct level below an inherited one; without the direct membership the
        // user keeps the inherited level, which is at or above the one written: as for a user
        // who is no direct member, that is no change to make.
        return deletion(
          place,
          live,
          `${written} inherits ${nameOfLevel(inherited)} from a group above ${place.scope}, above ${nameOfLevel(wanted.level)}: GitLab refuses a direct membership below an inherited one, so the direct membership goes and the inherited ${nameOfLevel(inherited)} remains`,
        );
      }
    }
    const body: Record<string, unknown> = { access_level: wanted.level };
    if (wanted.expires !== undefined && wanted.expires !== expiryOf(live)) {
      body.expires_at = wanted.expires;
    }
    if (role !== undefined && (role?.id ?? null) !== (kept?.id ?? null)) {
      body.member_role_id = role?.id ?? null;
    }
    return {
      action: "update",
      diff,
      requests: [{ method: "PUT", path: `${place.base}/members/${live.id}`, body }],
      live_fingerprint: fingerprint(before),
    };
  }
  const effective = await p.effective();
  if (effective.kind !== "found") {
    return { error: listingError(place, effective, `${place.base}/members/all`) };
  }
  const inherited = effective.data.get(written.toLowerCase());
  // A custom role needs a direct membership: one at the inherited level is one GitLab takes.
  const covered =
    inherited !== undefined &&
    (inherited.access_level > wanted.level ||
      (inherited.access_level === wanted.level && (role ?? null) === null));
  if (inherited !== undefined && covered) {
    const notes = [
      `${written} inherits ${nameOfLevel(inherited.access_level)} from a group above ${place.scope}, at or above ${nameOfLevel(wanted.level)}: no direct membership is made (GitLab refuses one below an inherited level)`,
    ];
    if (wanted.expires != null) {
      notes.push(`expires_at ${wanted.expires} is not applied: the membership is inherited`);
    }
    if (role != null) {
      notes.push(`member_role ${role.name} is not applied: the membership is inherited`);
    }
    return { live_fingerprint: fingerprint({ inherited: inherited.access_level }), notes };
  }
  const user = inherited !== undefined ? { id: inherited.id } : await lookUpUser(place, written);
  if ("error" in user) return { error: user.error };
  const body: Record<string, unknown> = { user_id: user.id, access_level: wanted.level };
  if (wanted.expires != null) body.expires_at = wanted.expires;
  if (role != null) body.member_role_id = role.id;
  return {
    action: "create",
    diff: diffValues({}, shownWanted(wanted, role ?? undefined)),
    requests: [{ method: "POST", path: `${place.base}/members`, body }],
    live_fingerprint: fingerprint(
      inherited === undefined ? null : { inherited: inherited.access_level },
    ),
    ...(inherited !== undefined
      ? {
          notes: [
            `${written} inherits ${nameOfLevel(inherited.access_level)} from a group above ${place.scope}: a direct membership raises it to ${nameOfLevel(wanted.level)}`,
          ],
        }
      : {}),
  };
}

/**
 * The changes that would leave a group without an owner, made errors: GitLab refuses to remove or
 * demote the last owner (403). Owners inherited from a group above count, as GitLab counts them
 * for a subgroup; an owner this plan adds does not, since apply sends a kind's deletes before its
 * other changes: a handover adds the new owner in one apply and removes the old one in the next.
 */
async function lastOwner(p: Planning, changes: Change[]): Promise<Change[]> {
  if (p.place.what !== "group" || p.ownersLost.size === 0) return changes;
  const lost = (change: Change) =>
    change.error === undefined &&
    (change.action === "delete" || change.action === "update") &&
    p.ownersLost.has(change.name);
  const effective = await p.effective();
  if (effective.kind !== "found") {
    const error = listingError(p.place, effective, `${p.place.base}/members/all`);
    return changes.map((change) => (lost(change) ? { ...change, error } : change));
  }
  const remaining = [...effective.data.values()].filter(
    (member) =>
      member.access_level === LEVELS.owner && !p.ownersLost.has(member.username.toLowerCase()),
  );
  if (remaining.length > 0) return changes;
  const error = changeError(
    `this would leave group ${p.place.scope} without an owner: GitLab refuses to remove or demote a group's last owner (403); make another member owner in an apply of its own first (apply removes before it adds)`,
  );
  return changes.map((change) => (lost(change) ? { ...change, error } : change));
}

/** Plans the members of one project or group. */
export async function planMembers(
  place: MembersPlace,
  value: Members,
  deleted: readonly Change[],
): Promise<Change[]> {
  const p: Planning = {
    place,
    effective: effectiveReader(place),
    inherited: aboveReader(place),
    roles: rolesReader(place),
    ownersLost: new Set(),
  };
  const path = `${place.base}/members`;
  const changes = await planCollection<WrittenMember | null, LiveMember>({
    reader: place.reader,
    scope: place.scope,
    kind: KIND,
    what: `the members of ${place.scope}`,
    mode: value.mode ?? "additive",
    members: Object.entries(value.users ?? {}).map(([name, desired]) => ({
      name: name.toLowerCase(),
      desired,
    })),
    path,
    list: () => place.reader.list(path, undefined, memberShape),
    nameOf: (member) => member.username,
    canonical: (name) => name.toLowerCase(),
    plan: ({ name, desired }, live) => planMember(p, written(value, name), desired, live),
    remove: (live) => {
      if (live.access_level === LEVELS.owner) p.ownersLost.add(live.username.toLowerCase());
      return {
        name: live.username.toLowerCase(),
        change: deletion(
          place,
          live,
          `${live.username} is not in the desired state (members mode: authoritative)`,
        ),
      };
    },
    deleted,
  });
  return lastOwner(p, changes);
}

/** The username as written (its case), for messages and the user look-up. */
function written(value: Members, lower: string): string {
  return Object.keys(value.users ?? {}).find((name) => name.toLowerCase() === lower) ?? lower;
}
