import {
  addressOf,
  type Change,
  type ChangeError,
  type DiffEntry,
  type PlannedRequest,
  unlistedChange,
} from "../../core/plan.js";
import { mustFind, type ReadResult, type RepoRef, type ResourceReader } from "../context.js";
import { deletedAt } from "../deleted.js";
import type { KindModule, PlanOptions } from "../kind.js";
import { accessGraphql } from "./graphql.js";
import { teamsFromOrganization } from "./org-teams.js";
import { AccessReads, type LiveTeam, type LiveUser } from "./reads.js";
import { builtInRole } from "./roles.js";
import { type AccessSettings, accessRules, accessSchema } from "./settings.js";
import { planTeam, removeTeam, TEAMS } from "./teams.js";
import { planUser, removeUser, USERS } from "./users.js";

/**
 * Who has access to a repository (`access: {mode, users, teams}`): its direct collaborators, their
 * pending invitations and the teams granted access, each with a role. Layers merge user by user and
 * team by team. `additive` (the default) manages the grants listed; `authoritative` also removes
 * the direct grants and invitations not listed of each collection it writes (`users`, `teams`),
 * never an organization owner's access, access through a team, or a security manager team's. Its
 * removals are capped by the engine like every authoritative collection's.
 */

const KIND = "access";

function place(reads: AccessReads, collection: string): string {
  const { owner, name } = reads.repo;
  return addressOf(reads.reader.target, `${owner}/${name}`, KIND, collection);
}

function failed<T>(result: ReadResult<T>): ChangeError | undefined {
  return result.kind === "error" ? result.error : undefined;
}

async function planUsers(
  reads: AccessReads,
  wanted: Readonly<Record<string, string | null>>,
  authoritative: boolean,
): Promise<Change[]> {
  const listed = await reads.users();
  if (listed.kind !== "found") {
    const error = failed(listed);
    return Object.keys(wanted).map((login) => ({
      ...reads.change(`${USERS}/${login.toLowerCase()}`),
      ...(error ? { error } : {}),
    }));
  }
  const live = listed.data;
  const named = new Set(Object.keys(wanted).map((login) => login.toLowerCase()));
  const collection = { collection: place(reads, USERS), live: live.size };
  return Promise.all([
    ...Object.entries(wanted).map(([login, role]) =>
      planUser(reads, login, role, live.get(login.toLowerCase())),
    ),
    ...(authoritative
      ? [...live]
          .filter(([key]) => !named.has(key))
          .map(([, user]) => removeUser(reads, user, collection))
      : []),
  ]);
}

async function planTeams(
  reads: AccessReads,
  wanted: Readonly<Record<string, string | null>>,
  authoritative: boolean,
): Promise<Change[]> {
  const listed = await reads.teams();
  if (listed.kind !== "found") {
    const error = failed(listed);
    return Object.keys(wanted).map((slug) => ({
      ...reads.change(`${TEAMS}/${slug.toLowerCase()}`),
      ...(error ? { error } : {}),
    }));
  }
  const live = listed.data;
  // A team written by its display name is an error of its own, never also a team to remove.
  const named = new Set(
    Object.keys(wanted).flatMap((written) => {
      const lower = written.toLowerCase();
      const byName = [...live.values()].find((team) => team.name.toLowerCase() === lower);
      return byName === undefined ? [lower] : [lower, byName.slug.toLowerCase()];
    }),
  );
  const direct = [...live.values()].filter((team) => team.direct).length;
  const collection = { collection: place(reads, TEAMS), live: direct };
  const planned = await Promise.all([
    ...Object.entries(wanted).map(([slug, role]) =>
      planTeam(reads, slug, role, live.get(slug.toLowerCase()), live),
    ),
    ...(authoritative
      ? [...live]
          .filter(([key]) => !named.has(key))
          .map(([, team]) => removeTeam(reads, team, collection))
      : []),
  ]);
  return planned.filter((change): change is Change => change !== undefined);
}

/**
 * The grants an apply removed that no configuration names (authoritative mode removed them), as
 * the plan that verifies it sees them: gone from the listing (a no-op), or the listing's error.
 */
async function removedGrants(
  reads: AccessReads,
  deleted: readonly Change[],
  planned: readonly Change[],
): Promise<Change[]> {
  const names = new Set(planned.map((change) => change.name));
  const result: Change[] = [];
  for (const change of deleted) {
    if (names.has(change.name)) continue;
    const [collection, key = ""] = change.name.split(/\/(.*)/s);
    const listed: ReadResult<ReadonlyMap<string, LiveUser | LiveTeam>> =
      collection === USERS ? await reads.users() : await reads.teams();
    const gone = deletedAt(change, listed, key);
    if (gone !== undefined) result.push(gone);
  }
  return result;
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
  const wants = (collection: "users" | "teams", written: object) =>
    over[collection] ||
    Object.keys(written).length > 0 ||
    deleted.some((change) => change.name.startsWith(`${collection}/`));
  const [planned, teamChanges] = await Promise.all([
    wants(USERS, users) ? planUsers(reads, users, over.users) : [],
    wants(TEAMS, teams) ? planTeams(reads, teams, over.teams) : [],
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
  return [...changes, ...(await removedGrants(reads, deleted, changes))];
}

/** The access that reproduces the live state: direct grants and open invitations, additive. */
async function exportAccess(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<AccessSettings | undefined> {
  const reads = new AccessReads(reader, repo);
  const users = mustFind(await reads.users(), `${reads.path}/collaborators`);
  const teams = mustFind(await reads.teams(), `${reads.path}/teams`);
  const exported: AccessSettings = { mode: "additive" };
  const granted: Record<string, string> = {};
  for (const user of [...users.values()].sort((a, b) => (a.login < b.login ? -1 : 1))) {
    const role =
      user.role ?? (user.invitation?.expired === false ? user.invitation.role : undefined);
    if (role !== undefined) granted[user.login] = role;
  }
  const teamRoles: Record<string, string> = {};
  for (const team of [...teams.values()].sort((a, b) => (a.slug < b.slug ? -1 : 1))) {
    if (team.direct) teamRoles[team.slug] = team.role;
  }
  if (Object.keys(granted).length > 0) exported.users = granted;
  if (Object.keys(teamRoles).length > 0) exported.teams = teamRoles;
  return exported.users || exported.teams ? exported : undefined;
}

/**
 * What a grant's answer must show: an invitation (201) the role sent, a changed invitation its new
 * role; a grant answered 204 has nothing to compare.
 */
export function verifyGrant(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (response === undefined || response === null || request.method === "DELETE") return [];
  const body = (request.body ?? {}) as { permission?: string; permissions?: string };
  const sent = body.permissions ?? body.permission;
  const answered = (response as { permissions?: unknown }).permissions;
  if (typeof answered !== "string") {
    return [{ path: "(response)", before: "a repository invitation", after: "something else" }];
  }
  // An invitation names only the five built-in roles: one for a custom role shows its base role.
  const expected = sent === undefined ? undefined : builtInRole(sent);
  if (expected === undefined || expected === answered) return [];
  return [{ path: "role", before: expected, after: answered }];
}

export const access: KindModule = {
  name: KIND,
  repository: {
    setting: {
      key: "access",
      schema: accessSchema,
      rules: accessRules,
      // Defined user by user and team by team, as layers merge them.
      defines: (value) => {
        const { mode, users = {}, teams = {} } = value as AccessSettings;
        return [
          ...(mode === undefined
            ? []
            : [{ id: "access mode", path: ["mode"], what: "the access mode" }]),
          ...Object.keys(users).map((login) => ({
            id: `access user ${login.toLowerCase()}`,
            path: ["users", login],
            what: `the access of user ${login}`,
          })),
          ...Object.keys(teams).map((slug) => ({
            id: `access team ${slug.toLowerCase()}`,
            path: ["teams", slug],
            what: `the access of team ${slug}`,
          })),
        ];
      },
      print: () => [{ kind: KIND, name: "*", path: [], defaults: [["mode", "additive"]] }],
    },
    plan: ({ reader, repo, value, options }) =>
      planAccess(reader, repo, value as AccessSettings, options),
    graphql: accessGraphql,
    organizationSide: teamsFromOrganization,
    export: exportAccess,
  },
  verify: verifyGrant,
};
