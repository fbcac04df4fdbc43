import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const organizationSettingsPermissions: Readonly<Record<string, PermissionRow>> = {
  // Organization profile, hooks, Actions: the page's "Administration", "Webhooks", "Secrets",
  // "Variables", "Dependabot secrets" and "Environments" permissions of repositories and organizations.
  "GET /orgs/:org": [{}],
  "PATCH /orgs/:org": [{ organization_administration: "write" }],
};
