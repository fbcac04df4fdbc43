import type { Organization, RepoPermission, Role } from "../world/records.js";

const PERMISSIONS: readonly RepoPermission[] = ["pull", "triage", "push", "maintain", "admin"];

/**
 * A role as a grant names it: "`pull`, `triage`, `push`, `maintain`, `admin` and you can also
 * specify a custom repository role name, if the owning organization has defined any" (GitHub's
 * "Add a repository collaborator" and "Add or update team repository permissions"). Custom role
 * names are matched case-insensitively; undefined when the name is neither.
 */
export function resolveRole(org: Organization | null, written: string): Role | undefined {
  if ((PERMISSIONS as readonly string[]).includes(written)) return written as RepoPermission;
  return org?.customRoles.get(written.toLowerCase());
}
