import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const propertyPermissions: Readonly<Record<string, PermissionRow>> = {
  "GET /repos/:owner/:repo/properties/values": [{ metadata: "read" }],
  "PATCH /repos/:owner/:repo/properties/values": [{ repository_custom_properties: "write" }],
  // The page also lists these under Members and organization Administration; each endpoint's own
  // page names one set ("The token must have the following permission set:
  // organization_custom_properties:read", docs.github.com/en/rest/orgs/custom-properties).
  "GET /orgs/:org/properties/schema": [{ organization_custom_properties: "read" }],
  "GET /orgs/:org/properties/schema/:name": [{ organization_custom_properties: "read" }],
  "PUT /orgs/:org/properties/schema/:name": [{ organization_custom_properties: "admin" }],
  "DELETE /orgs/:org/properties/schema/:name": [{ organization_custom_properties: "admin" }],
  "GET /orgs/:org/properties/values": [{ organization_custom_properties: "read" }],
  "PATCH /orgs/:org/properties/values": [{ organization_custom_properties: "write" }],
};
