import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const environmentPermissions: Readonly<Record<string, PermissionRow>> = {
  // Environments are read under Actions and written under Administration.
  "GET /repos/:owner/:repo/environments": [{ actions: "read" }],
  "GET /repos/:owner/:repo/environments/:name": [{ actions: "read" }],
  "PUT /repos/:owner/:repo/environments/:name": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/environments/:name": [{ administration: "write" }],
  "GET /repos/:owner/:repo/environments/:name/deployment-branch-policies": [{ actions: "read" }],
  "POST /repos/:owner/:repo/environments/:name/deployment-branch-policies": [
    { administration: "write" },
  ],
  "GET /repos/:owner/:repo/environments/:name/deployment-branch-policies/:id": [
    { actions: "read" },
  ],
  "PUT /repos/:owner/:repo/environments/:name/deployment-branch-policies/:id": [
    { administration: "write" },
  ],
  "DELETE /repos/:owner/:repo/environments/:name/deployment-branch-policies/:id": [
    { administration: "write" },
  ],
};
