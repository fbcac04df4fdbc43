/**
 * The members of an existing team, user by user (`PUT`/`DELETE …/teams/{slug}/memberships/{user}`;
 * a PUT changes the role of a member it finds). A member only through a child team (GitHub lists
 * them with `inherited: true`) is not a member of this team to change or remove. A pending
 * membership (someone outside the organization, invited with it) counts as a member.
 */
import * as z from "zod";
import { type Change, newChange } from "../../core/plan.js";
import { knownUser } from "../logins.js";
import { planCollection } from "../collection.js";
import { changeError, type ReadResult, type ResourceReader } from "../context.js";
import { fingerprint } from "../fingerprint.js";
import { ownersOf } from "../owners.js";
import type { MemberSettings } from "./settings.js";

export type TeamRole = "member" | "maintainer";

/** A direct member of a team, as its listings by role show it. */
export interface LiveMember {
  login: string;
  role: TeamRole;
}

const memberShape = {
  name: "team members",
  schema: z.looseObject({ login: z.string().min(1), inherited: z.boolean().optional() }),
};

const membershipShape = {
  name: "a Team Membership",
  schema: z.looseObject({
    role: z.enum(["member", "maintainer"]),
    state: z.enum(["active", "pending"]),
  }),
};

export interface TeamPlace {
  reader: ResourceReader;
  org: string;
  slug: string;
}

export function teamBase(place: TeamPlace): string {
  return `/orgs/${encodeURIComponent(place.org)}/teams/${encodeURIComponent(place.slug)}`;
}

export function membershipPath(place: TeamPlace, login: string): string {
  return `${teamBase(place)}/memberships/${encodeURIComponent(login)}`;
}

export function memberName(slug: string, login: string): string {
  return `${slug}/members/${login.toLowerCase()}`;
}

/**
 * The team's direct members by lower-case login, with their roles: the listing read once per role
 * (`role=maintainer`, `role=member`), which every organization answers, where the roles in a
 * listing of all members depend on a feature of the organization.
 */
export async function directMembers(
  place: TeamPlace,
): Promise<ReadResult<Map<string, LiveMember>>> {
  const path = `${teamBase(place)}/members`;
  const members = new Map<string, LiveMember>();
  for (const role of ["maintainer", "member"] as const) {
    const read = await place.reader.list(path, { role }, memberShape);
    if (read.kind === "error") return read;
    if (read.kind === "absent") {
      return {
        kind: "error",
        error: changeError(`team ${place.slug} of ${place.org} was not found`, "GET", path, 404),
      };
    }
    for (const member of read.data) {
      if (member.inherited === true) continue;
      members.set(member.login.toLowerCase(), { login: member.login, role });
    }
  }
  return { kind: "found", data: members };
}

function put(place: TeamPlace, login: string, role: TeamRole) {
  return { method: "PUT" as const, path: membershipPath(place, login), body: { role } };
}

/** One member the configuration names, against the listing (and its membership, when not listed). */
async function planMember(
  place: TeamPlace,
  written: string,
  wanted: TeamRole | null,
  listed: LiveMember | undefined,
): Promise<Change> {
  let live: { role: TeamRole; state: "active" | "pending" } | undefined =
    listed === undefined ? undefined : { role: listed.role, state: "active" };
  const base = newChange(place.reader.target, place.org, "team", memberName(place.slug, written));
  if (live === undefined) {
    const path = membershipPath(place, written);
    const read = await place.reader.getOrAbsent(path, membershipShape);
    if (read.kind === "error") return { ...base, error: read.error };
    if (read.kind === "found") live = read.data;
  }
  const planned = { ...base, live_fingerprint: fingerprint(live ?? null) };
  const login = listed?.login ?? written;
  if (wanted === null) {
    if (live === undefined) return planned;
    return {
      ...planned,
      action: "delete",
      diff: [{ path: "role", before: live.role }],
      requests: [{ method: "DELETE", path: membershipPath(place, login) }],
    };
  }
  if (live === undefined) {
    // Not a member: the login must be a user, or the membership's PUT fails at apply.
    const known = await knownUser(
      place.reader,
      written,
      [place.slug, "members", "users", written],
      "member",
    );
    if ("error" in known) return { ...base, error: known.error };
    return {
      ...planned,
      action: "create",
      diff: [{ path: "role", after: wanted }],
      requests: [put(place, login, wanted)],
    };
  }
  const pending =
    live.state === "pending"
      ? [`${login} has not joined ${place.org} yet: the pending membership counts as a member`]
      : [];
  const withNotes = pending.length > 0 ? { ...planned, notes: pending } : planned;
  if (live.role === wanted) return withNotes;
  if (live.role === "maintainer" && wanted === "member") {
    const owners = await ownersOf(place.reader, place.org);
    if (owners.kind === "error") return { ...planned, error: owners.error };
    if (owners.kind === "found" && owners.data.has(login.toLowerCase())) {
      return {
        ...planned,
        notes: [
          `${login} owns ${place.org}: GitHub shows an owner as a maintainer of every team ("The role for organization owners is set to maintainer")`,
        ],
      };
    }
  }
  return {
    ...withNotes,
    action: "update",
    diff: [{ path: "role", before: live.role, after: wanted }],
    requests: [put(place, login, wanted)],
  };
}

/**
 * The member changes of an existing team (`place`: where it lives, under its live slug; `slug`:
 * the slug it is written under, which names its changes): a collection by login in any case.
 */
export function planMembers(
  place: TeamPlace,
  slug: string,
  wanted: MemberSettings,
): Promise<Change[]> {
  const written: TeamPlace = { ...place, slug };
  return planCollection<{ login: string; role: TeamRole | null }, LiveMember>({
    reader: place.reader,
    scope: place.org,
    kind: "team",
    prefix: `${slug}/members/`,
    what: `the members of team ${slug}`,
    mode: wanted.mode ?? "additive",
    members: Object.entries(wanted.users ?? {}).map(([login, role]) => ({
      name: login.toLowerCase(),
      desired: { login, role },
    })),
    path: `${teamBase(place)}/members`,
    list: async () => {
      const listed = await directMembers(place);
      return listed.kind === "found" ? { kind: "found", data: [...listed.data.values()] } : listed;
    },
    nameOf: (member) => member.login,
    canonical: (login) => login.toLowerCase(),
    plan: ({ desired }, listed) => planMember(written, desired.login, desired.role, listed),
    remove: (member) => ({
      name: member.login.toLowerCase(),
      change: {
        action: "delete",
        diff: [{ path: "role", before: member.role }],
        requests: [{ method: "DELETE", path: membershipPath(written, member.login) }],
        live_fingerprint: fingerprint({ role: member.role, state: "active" }),
        notes: [`${member.login} is not in the desired state (members mode: authoritative)`],
      },
    }),
    unlisted: "bare",
  });
}
