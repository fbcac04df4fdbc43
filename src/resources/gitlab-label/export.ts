import { mustFind, type ResourceReader } from "../context.js";
import { LABEL_SHAPE, PROJECT_LABEL_SHAPE } from "./canonical.js";
import type { Place } from "./plan.js";
import type { GroupLabels, ProjectLabelSettings, ProjectLabels } from "./settings.js";

/**
 * A project's or a group's own labels as they are live, additive: each with its colour as GitLab
 * stores it, its description and (a project's) its priority where it has them. Labels inherited
 * from the groups above are their groups' to export.
 */
export async function exportGitlabLabels(
  reader: ResourceReader,
  path: string,
  place: Place,
): Promise<ProjectLabels | GroupLabels | undefined> {
  const own =
    place === "project"
      ? mustFind(await reader.list(path, undefined, PROJECT_LABEL_SHAPE), path).filter(
          (label) => label.is_project_label,
        )
      : mustFind(await reader.list(path, { include_ancestor_groups: "false" }, LABEL_SHAPE), path);
  if (own.length === 0) return undefined;
  const items = Object.fromEntries(
    own.map((label): [string, ProjectLabelSettings] => {
      const settings: ProjectLabelSettings = { color: label.color };
      if (label.description) settings.description = label.description;
      if (place === "project" && label.priority !== null && label.priority !== undefined) {
        settings.priority = label.priority;
      }
      return [label.name, settings];
    }),
  );
  return { mode: "additive", items };
}
