import { mergeSeeds } from "../core/seed.js";
import { GITHUB_AREAS } from "../github/index.js";
import { GITLAB_AREAS } from "../gitlab/index.js";
import type { WorldSeedInput } from "./schema.js";

const AREAS = [...GITHUB_AREAS, ...GITLAB_AREAS];

/**
 * The demo world: the default seed of every sandbox, each area's part of it together (an area's
 * `demo`). Examples, docs and tests are written against exactly these facts, so change them only
 * together with those.
 */
export const demoWorld: WorldSeedInput = mergeSeeds(
  AREAS.map((area) => area.demo ?? {}),
  Object.assign({}, ...AREAS.map((area) => area.keys ?? {})) as Record<string, string>,
) as WorldSeedInput;
