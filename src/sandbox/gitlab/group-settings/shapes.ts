import type { Group } from "../world/records.js";
import { type GroupSettingsRecord, PREMIUM_FIELDS } from "./records.js";

/**
 * The settings fields of GitLab's group answer (doc/api/groups.md, "Get a single group" and
 * "Update group attributes"): `prevent_sharing_groups_outside_hierarchy` "is present in the
 * response only for top-level groups"; the Premium fields only where the tier has them (the page:
 * "Users of GitLab Premium or Ultimate also see the `wiki_access_level` … attributes"; the sandbox
 * treats the other two "Premium and Ultimate only" parameters alike).
 */
export function groupSettingsFields(
  group: Group,
  settings: GroupSettingsRecord,
  premium: boolean,
): Record<string, unknown> {
  const fields: Record<string, unknown> = structuredClone(settings);
  if (group.parent !== null) delete fields.prevent_sharing_groups_outside_hierarchy;
  if (!premium) for (const field of PREMIUM_FIELDS) delete fields[field];
  return fields;
}
