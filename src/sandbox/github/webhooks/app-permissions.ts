import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const hookPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /repos/:owner/:repo/hooks": [{ repository_hooks: "read" }],
  "POST /repos/:owner/:repo/hooks": [{ repository_hooks: "write" }],
  "GET /repos/:owner/:repo/hooks/:id": [{ repository_hooks: "read" }],
  "PATCH /repos/:owner/:repo/hooks/:id": [{ repository_hooks: "write" }],
  "DELETE /repos/:owner/:repo/hooks/:id": [{ repository_hooks: "write" }],
  "GET /repos/:owner/:repo/hooks/:id/config": [{ repository_hooks: "read" }],
  "PATCH /repos/:owner/:repo/hooks/:id/config": [{ repository_hooks: "write" }],
  "GET /orgs/:org/hooks": [{ organization_hooks: "read" }],
  "POST /orgs/:org/hooks": [{ organization_hooks: "write" }],
  "GET /orgs/:org/hooks/:id": [{ organization_hooks: "read" }],
  "PATCH /orgs/:org/hooks/:id": [{ organization_hooks: "write" }],
  "DELETE /orgs/:org/hooks/:id": [{ organization_hooks: "write" }],
  "GET /orgs/:org/hooks/:id/config": [{ organization_hooks: "read" }],
  "PATCH /orgs/:org/hooks/:id/config": [{ organization_hooks: "write" }],
};
