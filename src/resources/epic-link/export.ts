import { mustFind, type ResourceReader } from "../context.js";
import { groupPath, OWN_EPICS, readEpic } from "./canonical.js";

/** Clean-ups name what must not exist, so live epics are listed as comments to pick from. */
export async function exportEpics(
  reader: ResourceReader,
  group: string,
): Promise<{ entries: never[]; comments: string[] }> {
  const path = `${groupPath(group)}/epics`;
  const epics = mustFind(
    await reader.list(path, OWN_EPICS, { name: "epics", schema: readEpic }),
    path,
  );
  const listed = epics.map((epic) => `&${epic.iid} "${epic.title ?? ""}"`).join(", ");
  return {
    entries: [],
    comments: [
      `group ${group} epics (name links between them under groups[].epic_links_absent): ${listed || "none"}`,
    ],
  };
}
