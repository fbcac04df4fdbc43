import { mustFind, type ResourceReader } from "../context.js";
import { projectPath } from "../gitlab-paths.js";
import { readBoard } from "./canonical.js";

/**
 * Clean-ups name what must not exist: nothing of the live state is theirs to write, so the
 * project's boards are listed as a comment to pick from.
 */
export async function boardComments(reader: ResourceReader, project: string): Promise<string[]> {
  const path = `${projectPath(project)}/boards`;
  const boards = mustFind(
    await reader.list(path, undefined, { name: "issue boards", schema: readBoard }),
    path,
  );
  const listed = boards.map((found) => `${found.id} "${found.name ?? ""}"`).join(", ");
  return [
    `project ${project} boards (name any under projects[].boards_absent to delete it): ${listed || "none"}`,
  ];
}
