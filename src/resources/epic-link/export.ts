import { mustFind, type ResourceReader } from "../context.js";
import { groupPath } from "../gitlab-paths.js";
import { OWN_EPICS, readEpic } from "./canonical.js";

/**
 * Clean-ups name what must not exist: nothing of the live state is theirs to write, so the group's
 * epics are listed as a comment to pick from.
 */
export async function epicComments(reader: ResourceReader, group: string): Promise<string[]> {
  const path = `${groupPath(group)}/epics`;
  const epics = mustFind(
    await reader.list(path, OWN_EPICS, { name: "epics", schema: readEpic }),
    path,
  );
  const listed = epics.map((epic) => `&${epic.iid} "${epic.title ?? ""}"`).join(", ");
  return [
    `group ${group} epics (name links between them under groups[].epic_links_absent): ${listed || "none"}`,
  ];
}
