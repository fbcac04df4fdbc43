import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const labelPermissions: Readonly<Record<string, PermissionRow>> = {
  // Labels are listed under both Issues and Pull requests, each naming the other as additional.
  "GET /repos/:owner/:repo/labels": [{ issues: "read" }, { pull_requests: "read" }],
  "POST /repos/:owner/:repo/labels": [{ issues: "write" }, { pull_requests: "write" }],
  "GET /repos/:owner/:repo/labels/:name": [{ issues: "read" }, { pull_requests: "read" }],
  "PATCH /repos/:owner/:repo/labels/:name": [{ issues: "write" }, { pull_requests: "write" }],
  "DELETE /repos/:owner/:repo/labels/:name": [{ issues: "write" }, { pull_requests: "write" }],
};
