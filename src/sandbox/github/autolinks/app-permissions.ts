import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const autolinkPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /repos/:owner/:repo/autolinks": [{ administration: "read" }],
  "POST /repos/:owner/:repo/autolinks": [{ administration: "write" }],
  "GET /repos/:owner/:repo/autolinks/:id": [{ administration: "read" }],
  "DELETE /repos/:owner/:repo/autolinks/:id": [{ administration: "write" }],
};
