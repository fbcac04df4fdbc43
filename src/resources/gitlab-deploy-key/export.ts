import { mustFind, type ResourceReader } from "../context.js";
import { PROJECT_KEY_SHAPE } from "./canonical.js";
import type { DeployKeys, DeployKeySettings } from "./settings.js";

/**
 * A project's deploy keys as they are live, additive, by title. Of two keys under one title only
 * the first can be written (an additive list leaves the other as it is).
 */
export async function exportDeployKeys(
  reader: ResourceReader,
  path: string,
): Promise<DeployKeys | undefined> {
  const live = mustFind(await reader.list(path, undefined, PROJECT_KEY_SHAPE), path);
  const items: Record<string, DeployKeySettings> = {};
  for (const key of live) {
    if (key.title in items) continue;
    items[key.title] = {
      key: key.key,
      can_push: key.can_push,
      ...(typeof key.expires_at === "string" ? { expires_at: key.expires_at } : {}),
    };
  }
  if (Object.keys(items).length === 0) return undefined;
  return { mode: "additive", items };
}
