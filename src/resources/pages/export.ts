import { mustFind, type RepoRef, type ResourceReader } from "../context.js";
import { PAGES_SHAPE } from "./canonical.js";
import { pagesPath } from "./plan.js";
import type { PagesSettings } from "./settings.js";

/** The site as it is live; none: nothing (a site that must not exist is written by hand). */
export async function exportPages(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<PagesSettings | undefined> {
  const path = pagesPath(repo);
  const read = await reader.getOrAbsent(path, PAGES_SHAPE);
  if (read.kind === "absent") return undefined;
  const live = mustFind(read, path);
  const type = live.build_type ?? "legacy";
  return {
    build_type: type,
    ...(type === "legacy" && live.source
      ? { source: { branch: live.source.branch, path: live.source.path as "/" | "/docs" } }
      : {}),
    cname: live.cname,
    https_enforced: live.https_enforced ?? false,
  };
}
