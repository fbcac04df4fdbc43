import { mustFind, type ResourceReader } from "../context.js";
import { exported } from "../exported.js";
import { groupPath } from "../gitlab-paths.js";
import { groupAnswer, liveValue } from "./canonical.js";
import { type GroupSettings, groupSettings, groupSettingsSetting } from "./settings.js";

/**
 * The settings that reproduce a group's live state: every field of the setting GitLab's answer
 * shows (a tier's field only where GitLab shows it). A value the configuration cannot hold fails
 * the export with its read named rather than writing a file that would not load.
 */
export async function exportGroupSettings(
  reader: ResourceReader,
  group: string,
): Promise<GroupSettings | undefined> {
  const path = groupPath(group);
  const answer = mustFind(await reader.getOrAbsent(path, groupAnswer), path);
  const value: Record<string, unknown> = {};
  for (const field of Object.keys(groupSettings.shape)) {
    const shown = liveValue(answer, field);
    // No default branch of its own: the instance's applies, which the configuration cannot name.
    if (shown === undefined || shown === null) continue;
    value[field] = shown;
  }
  // An answer without any of the fields (a token that may not see them) exports nothing.
  if (Object.keys(value).length === 0) return undefined;
  return exported(groupSettingsSetting.schema, value, path);
}
