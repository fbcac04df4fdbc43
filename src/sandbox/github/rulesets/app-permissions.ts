import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const rulesetPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /repos/:owner/:repo/rulesets": [{ metadata: "read" }],
  "POST /repos/:owner/:repo/rulesets": [{ administration: "write" }],
  "GET /repos/:owner/:repo/rulesets/:id": [{ metadata: "read" }],
  "PUT /repos/:owner/:repo/rulesets/:id": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/rulesets/:id": [{ administration: "write" }],
  "GET /repos/:owner/:repo/rules/branches/*branch": [{ metadata: "read" }],
  // GitHub lists even the reads of organization rulesets under Administration write.
  "GET /orgs/:org/rulesets": [{ organization_administration: "write" }],
  "POST /orgs/:org/rulesets": [{ organization_administration: "write" }],
  "GET /orgs/:org/rulesets/:id": [{ organization_administration: "write" }],
  "PUT /orgs/:org/rulesets/:id": [{ organization_administration: "write" }],
  "DELETE /orgs/:org/rulesets/:id": [{ organization_administration: "write" }],
};
