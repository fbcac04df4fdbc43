/**
 * Repository roles as forgeplan compares them. GitHub names the same five levels two ways: as roles
 * (`read`, `triage`, `write`, `maintain`, `admin`: a collaborator's `role_name`, an invitation's
 * `permissions`) and in the API's older words (`pull`, `push`: a team's `permission`, the
 * `permission` a PUT takes). Plans show the role names; `pull` and `push` are read as aliases.
 * Anything else is an organization's custom repository role, by its name.
 */

export const ROLES = ["read", "triage", "write", "maintain", "admin"] as const;
export type BuiltInRole = (typeof ROLES)[number];

const ALIASES: Readonly<Record<string, BuiltInRole>> = { pull: "read", push: "write" };

export function isBuiltIn(role: string): role is BuiltInRole {
  return (ROLES as readonly string[]).includes(role);
}

/** The built-in role a name stands for (aliases resolved, any case), or undefined for a custom role. */
export function builtInRole(written: string): BuiltInRole | undefined {
  const lower = written.toLowerCase();
  return ALIASES[lower] ?? (isBuiltIn(lower) ? lower : undefined);
}

/** A role as read from the service: built-in roles by their role name, custom roles as named. */
export function liveRole(written: string): string {
  return builtInRole(written) ?? written;
}

/** The word a collaborator or team PUT takes: pull, triage, push, maintain, admin, or the custom name. */
export function apiPermission(role: string): string {
  if (role === "read") return "pull";
  if (role === "write") return "push";
  return role;
}

/** 1 (read) to 5 (admin): how far a built-in role reaches. */
export function levelOf(role: BuiltInRole): number {
  return ROLES.indexOf(role) + 1;
}
