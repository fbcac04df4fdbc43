import { mustFind, type RepoRef, type ResourceReader } from "../context.js";
import { exported } from "../exported.js";
import { levelName } from "../gitlab-access-levels.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import { expiryOf, sharedAnswer } from "./canonical.js";
import { groupSharesSetting, projectSharesSetting, type Shares } from "./settings.js";

/**
 * The groups a project or group is shared with, as a configuration writes them: a level by name,
 * with its end date where it has one (an additive list, which plans as no change).
 */
async function exportAt(
  reader: ResourceReader,
  path: string,
  what: "a project" | "a group",
  schema: typeof projectSharesSetting.schema,
): Promise<Shares | undefined> {
  const answer = mustFind(await reader.getOrAbsent(path, sharedAnswer(what)), path);
  if (answer.shared_with_groups.length === 0) return undefined;
  const groups: Record<string, unknown> = {};
  for (const share of answer.shared_with_groups) {
    const level = levelName(share.group_access_level);
    const expires = expiryOf(share);
    groups[share.group_full_path] =
      expires === null ? level : { group_access: level, expires_at: expires };
  }
  return exported(schema, { groups }, path) as Shares;
}

export function exportProjectShares(
  reader: ResourceReader,
  project: RepoRef,
): Promise<Shares | undefined> {
  return exportAt(reader, projectPath(project), "a project", projectSharesSetting.schema);
}

export function exportGroupShares(
  reader: ResourceReader,
  group: string,
): Promise<Shares | undefined> {
  return exportAt(reader, groupPath(group), "a group", groupSharesSetting.schema);
}
