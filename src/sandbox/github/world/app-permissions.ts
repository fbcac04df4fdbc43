import type { PermissionRow } from "./installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const worldPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /repos/:owner/:repo": [{ metadata: "read" }],
  "GET /orgs/:org/repos": [{ metadata: "read" }],
  "GET /users/:user": [{ metadata: "read" }],
  "GET /installation/repositories": [{}],
};
