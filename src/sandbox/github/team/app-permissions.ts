import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const teamPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /orgs/:org/teams": [{ members: "read" }],
  "POST /orgs/:org/teams": [{ members: "write" }],
  "GET /orgs/:org/teams/:team_slug": [{ members: "read" }],
  // Not in that copy of the page: a team's own operations and memberships are given Members, which
  // its listing and creation take (a choice, docs/service-decisions.md "Access and teams").
  "PATCH /orgs/:org/teams/:team_slug": [{ members: "write" }],
  "DELETE /orgs/:org/teams/:team_slug": [{ members: "write" }],
  "GET /orgs/:org/teams/:team_slug/members": [{ members: "read" }],
  "GET /orgs/:org/teams/:team_slug/memberships/:username": [{ members: "read" }],
  "PUT /orgs/:org/teams/:team_slug/memberships/:username": [{ members: "write" }],
  "DELETE /orgs/:org/teams/:team_slug/memberships/:username": [{ members: "write" }],
};
