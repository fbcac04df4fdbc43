import type { PermissionRow } from "../world/installation-access.js";

/**
 * What an App installation's token needs for each operation of this area, by `METHOD pattern`
 * (world/installation-access.ts: where the rows come from, and how they are checked).
 */
export const graphqlPermissions: Readonly<Record<string, PermissionRow>> = {
  // The GraphQL endpoint takes no permission itself; each field its query reads checks its own.
  "POST /graphql": [{}],
};
