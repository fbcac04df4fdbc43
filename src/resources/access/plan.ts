import { type Change, type ChangeError, unlistedChange } from "../../core/plan.js";
import { deletedAgain, planCollection } from "../collection.js";
import type { ReadResult, RepoRef, ResourceReader } from "../context.js";
import type { PlanOptions } from "../kind.js";
import { AccessReads, type LiveTeam, type LiveUser } from "./canonical.js";
import type { AccessSettings } from "./settings.js";
import { planTeam, removeTeam, TEAMS } from "./teams.js";
import { planUser, removeUser, USERS } from "./users.js";

/**
 * A repository's access, as two collections (../collection.ts): its direct collaborators with
 * their invitations (`users/<login>`) and the teams granted access (`teams/<slug>`), each by name
 * in any case. Authoritative mode is over what is written: `users` without `teams` leaves every
 * team grant alone. One `*` change stands for what either authoritative collection would remove
 * when its listing failed.
 */

const KIND = "access";

function failed<T>(result: ReadResult<T>): ChangeError | undefined {
  return result.kind === "error" ? result.error : undefined;
}

function planUsers(
  reads: AccessReads,
  wanted: Readonly<Record<string, string | null>>,
  authoritative: boolean,
): Promise<Change[]> {
  return planCollection<{ login: string; role: string | null }, LiveUser>({
    reader: reads.reader,
    scope: reads.scope,
    kind: KIND,
    prefix: `${USERS}/`,
    what: "the grants",
    mode: authoritative ? "authoritative" : "additive",
    members: Object.entries(wanted).map(([login, role]) => ({
      name: login.toLowerCase(),
      desired: { login, role },
    })),
    path: `${reads.path}/collaborators`,
    list: async () => {
      const listed = await reads.users();
      return listed.kind === "found" ? { kind: "found", data: [...listed.data.values()] } : listed;
    },
    nameOf: (user) => user.login,
    canonical: (login) => login.toLowerCase(),
    plan: ({ desired }, live) => planUser(reads, desired.login, desired.role, live),
    remove: async (user) => ({
      name: user.login.toLowerCase(),
      change: await removeUser(reads, user),
    }),
    unlisted: "none",
  });
}

function planTeams(
  reads: AccessReads,
  wanted: Readonly<Record<string, string | null>>,
  authoritative: boolean,
): Promise<Change[]> {
  /** The slugs written, and those of the teams written by their display name. */
  const named = (listed: readonly LiveTeam[]) =>
    new Set(
      Object.keys(wanted).flatMap((written) => {
        const lower = written.toLowerCase();
        const byName = listed.find((team) => team.name.toLowerCase() === lower);
        return byName === undefined ? [lower] : [lower, byName.slug.toLowerCase()];
      }),
    );
  let keptNames: { listed: readonly LiveTeam[]; names: Set<string> } | undefined;
  return planCollection<{ slug: string; role: string | null }, LiveTeam>({
    reader: reads.reader,
    scope: reads.scope,
    kind: KIND,
    prefix: `${TEAMS}/`,
    what: "the grants",
    mode: authoritative ? "authoritative" : "additive",
    members: Object.entries(wanted).map(([slug, role]) => ({
      name: slug.toLowerCase(),
      desired: { slug, role },
    })),
    path: `${reads.path}/teams`,
    list: async () => {
      const listed = await reads.teams();
      return listed.kind === "found" ? { kind: "found", data: [...listed.data.values()] } : listed;
    },
    nameOf: (team) => team.slug,
    canonical: (slug) => slug.toLowerCase(),
    plan: ({ desired }, live, listed) => planTeam(reads, desired.slug, desired.role, live, listed),
    // A team written by its display name is an error of its own, never also a team to remove.
    kept: (team, listed) => {
      if (keptNames?.listed !== listed) keptNames = { listed, names: named(listed) };
      return keptNames.names.has(team.slug.toLowerCase());
    },
    remove: async (team) => {
      const change = await removeTeam(reads, team);
      return change === undefined ? undefined : { name: team.slug.toLowerCase(), change };
    },
    // Only the repository's own grants can be removed.
    size: (listed) => listed.filter((team) => team.direct).length,
    unlisted: "none",
  });
}

/**
 * Whose invitations a plan needs: everyone's when it may remove users it does not name
 * (authoritative) or verifies a removal; else those of the users it names.
 */
function invitationsNeeded(
  users: Readonly<Record<string, string | null>>,
  authoritative: boolean,
  deleted: readonly Change[],
): "all" | { granted: string[]; removed: string[] } {
  if (authoritative || deleted.some((change) => change.name.startsWith(`${USERS}/`))) return "all";
  const entries = Object.entries(users);
  return {
    granted: entries.filter(([, role]) => role !== null).map(([login]) => login),
    removed: entries.filter(([, role]) => role === null).map(([login]) => login),
  };
}

export async function planAccess(
  reader: ResourceReader,
  repo: RepoRef,
  value: AccessSettings,
  options: PlanOptions,
): Promise<Change[]> {
  const { mode = "additive", users = {}, teams = {} } = value;
  // Authoritative over what is written: `users` without `teams` leaves every team grant alone.
  const over = {
    users: mode === "authoritative" && value.users !== undefined,
    teams: mode === "authoritative" && value.teams !== undefined,
  };
  const scope = `${repo.owner}/${repo.name}`;
  const deleted = options.deleted?.at(reader.target, scope, KIND) ?? [];
  const reads = new AccessReads(reader, repo, {
    teams,
    authoritative: over.teams,
    invitations: invitationsNeeded(users, over.users, deleted),
  });
  const [planned, teamChanges] = await Promise.all([
    planUsers(reads, users, over.users),
    planTeams(reads, teams, over.teams),
  ]);
  const changes = [...planned, ...teamChanges];
  // What authoritative mode would remove is unknown when a listing failed: without this, the plan
  // of an empty list would read as no change.
  const error =
    (over.users ? failed(await reads.users()) : undefined) ??
    (over.teams ? failed(await reads.teams()) : undefined);
  if (error !== undefined) {
    changes.unshift({
      ...unlistedChange(reader.target, scope, KIND, error),
      notes: ["the grants authoritative mode would remove could not be listed"],
    });
  }
  // The grants an apply removed that no configuration names, read again where they were.
  const again = await deletedAgain(deleted, changes, async (change) => {
    const [collection, key = ""] = change.name.split(/\/(.*)/s);
    const listed: ReadResult<ReadonlyMap<string, LiveUser | LiveTeam>> =
      collection === USERS ? await reads.users() : await reads.teams();
    if (listed.kind === "error") return listed.error;
    return listed.kind === "found" && listed.data.has(key) ? "listed" : "gone";
  });
  return [...changes, ...again];
}
