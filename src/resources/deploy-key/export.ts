import { mustFind, type RepoRef, type ResourceReader } from "../context.js";
import { DEPLOY_KEY_SHAPE } from "./canonical.js";
import { keysPath } from "./plan.js";
import type { DeployKeys } from "./settings.js";

/** The repository's deploy keys as they are live, additive. */
export async function exportDeployKeys(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<DeployKeys | undefined> {
  const path = keysPath(repo);
  const live = mustFind(await reader.list(path, undefined, DEPLOY_KEY_SHAPE), path);
  if (live.length === 0) return undefined;
  return {
    mode: "additive",
    keys: live.map(({ title, key, read_only }) => ({ title, key, read_only })),
  };
}
