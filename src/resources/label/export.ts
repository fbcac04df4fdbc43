import { mustFind, type RepoRef, type ResourceReader } from "../context.js";
import { fromRead, LABEL_SHAPE } from "./canonical.js";
import { labelsPath } from "./plan.js";
import type { LabelSettings, Labels } from "./settings.js";

/** The repository's labels as they are live, additive: every one with its colour and description. */
export async function exportLabels(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<Labels | undefined> {
  const path = labelsPath(repo);
  const live = mustFind(await reader.list(path, undefined, LABEL_SHAPE), path).map(fromRead);
  if (live.length === 0) return undefined;
  const items = Object.fromEntries(
    live.map(({ name, color, description }): [string, LabelSettings] => [
      name,
      description === "" ? { color } : { color, description },
    ]),
  );
  return { mode: "additive", items };
}
