import type { PermissionRow } from "../world/installation-access.js";

/** What an App installation's token needs for each operation of this area ("Pages" permission). */
export const pagesPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /repos/:owner/:repo/pages": [{ pages: "read" }],
  "POST /repos/:owner/:repo/pages": [{ administration: "write", pages: "write" }],
  "PUT /repos/:owner/:repo/pages": [{ administration: "write", pages: "write" }],
  "DELETE /repos/:owner/:repo/pages": [{ administration: "write", pages: "write" }],
};
