import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const accessPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /users/:user/repos": [{ metadata: "read" }],
  "GET /repos/:owner/:repo/collaborators": [{ metadata: "read" }],
  "PUT /repos/:owner/:repo/collaborators/:username": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/collaborators/:username": [{ administration: "write" }],
  "GET /repos/:owner/:repo/teams": [{ administration: "read" }],
  "GET /orgs/:org/members": [{ metadata: "read" }],
  // Not in that copy of the page: a team's repositories take repository Administration, as the
  // repository's collaborators; custom repository roles and organization roles the organization
  // permissions named after them (choices, docs/service-decisions.md "Access and teams").
  "PUT /orgs/:org/teams/:team_slug/repos/:owner/:repo": [{ administration: "write" }],
  "DELETE /orgs/:org/teams/:team_slug/repos/:owner/:repo": [{ administration: "write" }],
  "GET /orgs/:org/custom-repository-roles": [{ organization_custom_roles: "read" }],
  "GET /orgs/:org/organization-roles": [{ organization_administration: "read" }],
  "GET /orgs/:org/organization-roles/:role_id/teams": [{ organization_administration: "read" }],
};
