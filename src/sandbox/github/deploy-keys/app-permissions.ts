import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * ("Deploy keys" need Administration, GitHub's "Permissions required for GitHub Apps").
 */
export const deployKeyPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /repos/:owner/:repo/keys": [{ administration: "read" }],
  "POST /repos/:owner/:repo/keys": [{ administration: "write" }],
  "GET /repos/:owner/:repo/keys/:id": [{ administration: "read" }],
  "DELETE /repos/:owner/:repo/keys/:id": [{ administration: "write" }],
};
