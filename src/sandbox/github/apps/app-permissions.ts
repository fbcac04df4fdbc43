import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const appPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /orgs/:org/installations": [{ organization_administration: "read" }],
  "GET /apps/:app_slug": [{}],
};
