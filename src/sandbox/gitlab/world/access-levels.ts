/**
 * GitLab's access levels, the one table the sandbox's GitLab areas read roles from: the number
 * an endpoint takes and answers (`access_level`), the name GitLab's docs give it, and the role a
 * seed names it by. Source: GitLab's REST docs, "Group and project members API" (`Roles`: "0 no
 * access, 5 minimal access, 10 guest, 15 planner, 20 reporter, 30 developer, 40 maintainer, 50
 * owner"), doc/api/members.md in gitlab-org/gitlab, and `Gitlab::Access` (lib/gitlab/access.rb).
 */
export const ACCESS_LEVELS = [
  { level: 0, name: "No access", role: "no_access" },
  { level: 5, name: "Minimal access", role: "minimal_access" },
  { level: 10, name: "Guest", role: "guest" },
  { level: 15, name: "Planner", role: "planner" },
  { level: 20, name: "Reporter", role: "reporter" },
  { level: 30, name: "Developer", role: "developer" },
  { level: 40, name: "Maintainer", role: "maintainer" },
  { level: 50, name: "Owner", role: "owner" },
] as const;

export type Role = (typeof ACCESS_LEVELS)[number]["role"];

/** The roles a member can hold (no access is not a membership). */
export const MEMBER_ROLES = ACCESS_LEVELS.filter((entry) => entry.level > 0).map(
  (entry) => entry.role,
) as [Exclude<Role, "no_access">, ...Exclude<Role, "no_access">[]];

const BY_ROLE = new Map<string, number>(ACCESS_LEVELS.map((entry) => [entry.role, entry.level]));

export function accessLevelOf(role: Role): number {
  return BY_ROLE.get(role) ?? 0;
}

/** The documented name of an access level (`30` → `Developer`); undefined for another number. */
export function accessLevelName(level: number): string | undefined {
  return ACCESS_LEVELS.find((entry) => entry.level === level)?.name;
}
