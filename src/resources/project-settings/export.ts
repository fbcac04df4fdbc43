import { mustFind, type RepoRef, type ResourceReader } from "../context.js";
import { exported } from "../exported.js";
import { projectPath } from "../gitlab-paths.js";
import { projectAnswer } from "./canonical.js";
import { type ProjectSettings, projectSettings, projectSettingsSetting } from "./settings.js";

/**
 * The settings that reproduce a project's live state: every field of the setting GitLab's answer
 * shows (a tier's field only where GitLab shows it). A value the configuration cannot hold (a
 * build timeout outside GitLab's own limits, say, set before they existed) fails the export with
 * its read named rather than writing a file that would not load.
 */
export async function exportProjectSettings(
  reader: ResourceReader,
  project: RepoRef,
): Promise<ProjectSettings> {
  const path = projectPath(project);
  const answer = mustFind(await reader.getOrAbsent(path, projectAnswer), path);
  const value: Record<string, unknown> = {};
  for (const field of Object.keys(projectSettings.shape)) {
    const shown = (answer as Record<string, unknown>)[field];
    if (shown === undefined) continue;
    // GitLab shows a project without a description as null; the configuration writes it "".
    if (field === "description" && shown === null) value[field] = "";
    else if (field === "default_branch" && shown === null) continue;
    else value[field] = shown;
  }
  return exported(projectSettingsSetting.schema, value, path);
}
