import { mustFind, type ResourceReader } from "../context.js";
import { projectPath, readBoard } from "./canonical.js";

/** Clean-ups name what must not exist, so live boards are listed as comments to pick from. */
export async function exportBoards(
  reader: ResourceReader,
  project: string,
): Promise<{ entries: never[]; comments: string[] }> {
  const path = `${projectPath(project)}/boards`;
  const boards = mustFind(
    await reader.list(path, undefined, { name: "issue boards", schema: readBoard }),
    path,
  );
  const listed = boards.map((found) => `${found.id} "${found.name ?? ""}"`).join(", ");
  return {
    entries: [],
    comments: [
      `project ${project} boards (name any under projects[].boards_absent to delete it): ${listed || "none"}`,
    ],
  };
}
