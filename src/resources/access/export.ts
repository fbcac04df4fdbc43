import { mustFind, type RepoRef, type ResourceReader } from "../context.js";
import { AccessReads } from "./canonical.js";
import type { AccessSettings } from "./settings.js";

/** The access that reproduces the live state: direct grants and open invitations, additive. */
export async function exportAccess(
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
