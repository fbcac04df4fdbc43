import { mustFind, type ResourceReader } from "../context.js";
import { organizationShape, orgPath } from "./canonical.js";
import type * as z from "zod";
import { exported } from "../exported.js";
import {
  MANAGED_KEYS,
  type OrganizationSettings,
  organizationSettingsSetting,
} from "./settings.js";

/** Every managed field as it is live; unset text is left out (unmanaged). */
export async function exportOrganizationSettings(
  reader: ResourceReader,
  org: string,
): Promise<z.input<typeof organizationSettingsSetting.schema> | undefined> {
  const path = orgPath(org);
  const read = mustFind(await reader.getOrAbsent(path, organizationShape), path);
  const value: OrganizationSettings = {};
  for (const key of MANAGED_KEYS) {
    const found = read[key];
    if (typeof found === "boolean" || (typeof found === "string" && found !== "")) {
      value[key] = found;
    }
  }
  // A link is written only where it applies (the schema's rule).
  if (value.secret_scanning_push_protection_custom_link_enabled !== true) {
    delete value.secret_scanning_push_protection_custom_link;
  }
  if (Object.keys(value).length === 0) return undefined;
  return exported(organizationSettingsSetting.schema, value, path);
}
