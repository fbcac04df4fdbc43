import { mustFind, readFailure, type RepoRef, type ResourceReader } from "../context.js";
import { exported } from "../exported.js";
import { GitlabNames, resolveLive, TAG_LEVELS, writtenEntry } from "../protected-ref-access.js";
import { TAG_SHAPE } from "./canonical.js";
import { protectedTagsPath } from "./plan.js";
import { type ProtectedTags, protectedTagsSetting, type TagProtection } from "./settings.js";

/** The project's protected tags as they are live, additive. */
export async function exportProtectedTags(
  reader: ResourceReader,
  project: RepoRef,
): Promise<ProtectedTags | undefined> {
  const path = protectedTagsPath(project);
  const live = mustFind(await reader.list(path, undefined, TAG_SHAPE), path);
  if (live.length === 0) return undefined;
  const names = new GitlabNames(reader);
  const tags: Record<string, TagProtection> = {};
  for (const tag of live) {
    const found = await resolveLive(names, TAG_LEVELS, tag.create_access_levels);
    if (!found.ok) throw readFailure(found.error);
    tags[tag.name] = { create: found.value.map((entry) => writtenEntry(entry.shown)) };
  }
  return exported(protectedTagsSetting.schema, { mode: "additive", tags }, path);
}
