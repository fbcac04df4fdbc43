import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const protectionPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /repos/:owner/:repo/branches": [{ contents: "read" }],
  "GET /repos/:owner/:repo/branches/*branch": [{ contents: "read" }],
  "GET /repos/:owner/:repo/branches/*branch/protection": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/branches/*branch/protection": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/branches/*branch/protection": [{ administration: "write" }],
};
