import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const invitationPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /repos/:owner/:repo/invitations": [{ administration: "read" }],
  "DELETE /repos/:owner/:repo/invitations/:id": [{ administration: "write" }],
  "PATCH /repos/:owner/:repo/invitations/:id": [{ administration: "write" }],
};
