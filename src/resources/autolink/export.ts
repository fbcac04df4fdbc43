import { mustFind, type RepoRef, type ResourceReader } from "../context.js";
import { AUTOLINK_SHAPE } from "./canonical.js";
import { autolinksPath } from "./plan.js";
import type { AutolinkSettings, Autolinks } from "./settings.js";

/** The repository's autolinks as they are live, additive. */
export async function exportAutolinks(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<Autolinks | undefined> {
  const path = autolinksPath(repo);
  const live = mustFind(await reader.list(path, undefined, AUTOLINK_SHAPE), path);
  if (live.length === 0) return undefined;
  const items = Object.fromEntries(
    live.map(({ key_prefix, url_template, is_alphanumeric }): [string, AutolinkSettings] => [
      key_prefix,
      { url_template, is_alphanumeric },
    ]),
  );
  return { mode: "additive", items };
}
