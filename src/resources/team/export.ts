import { mustFind, type ResourceReader } from "../context.js";
import { canonical, orgTeamsPath, teamShape } from "./canonical.js";
import { directMembers, type TeamRole } from "./members.js";
import type { TeamSettings, Teams } from "./settings.js";

/** Every team of the organization, as configuration that plans as no change. */
export async function exportTeams(reader: ResourceReader, org: string): Promise<Teams | undefined> {
  const path = orgTeamsPath(org);
  const listed = mustFind(await reader.list(path, undefined, teamShape), path);
  const teams: Teams = {};
  for (const found of [...listed].sort((a, b) => (a.slug < b.slug ? -1 : 1))) {
    const team = canonical(found);
    const members = mustFind(
      await directMembers({ reader, org, slug: team.slug }),
      `${path}/${team.slug}/members`,
    );
    const exported: TeamSettings = {
      name: team.name,
      description: team.description,
      privacy: team.privacy,
      notification_setting: team.notification_setting,
      parent: team.parent,
    };
    if (members.size > 0) {
      const users: Record<string, TeamRole> = {};
      for (const member of [...members.values()].sort((a, b) => (a.login < b.login ? -1 : 1))) {
        users[member.login] = member.role;
      }
      exported.members = { mode: "additive", users };
    }
    teams[team.slug.toLowerCase()] = exported;
  }
  return Object.keys(teams).length > 0 ? teams : undefined;
}
