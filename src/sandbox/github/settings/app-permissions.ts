import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const settingsPermissions: Readonly<Record<string, PermissionRow>> = {
  "PATCH /repos/:owner/:repo": [{ administration: "write" }],
  "GET /repos/:owner/:repo/topics": [{ metadata: "read" }],
  "PUT /repos/:owner/:repo/topics": [{ administration: "write" }],
  "GET /repos/:owner/:repo/vulnerability-alerts": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/vulnerability-alerts": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/vulnerability-alerts": [{ administration: "write" }],
  "GET /repos/:owner/:repo/automated-security-fixes": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/automated-security-fixes": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/automated-security-fixes": [{ administration: "write" }],
  "GET /repos/:owner/:repo/private-vulnerability-reporting": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/private-vulnerability-reporting": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/private-vulnerability-reporting": [{ administration: "write" }],
  // The default branch's rename takes administration write ("To rename the default branch … GitHub
  // Apps must have the administration:write repository permission", the operation's page); any
  // other branch's, contents write.
  "POST /repos/:owner/:repo/branches/*branch/rename": [{ administration: "write" }],
  "POST /orgs/:org/repos": [{ administration: "write" }],
};
