import { buildGithubWorld } from "../github/index.js";
import type { GithubWorld } from "../github/world/records.js";
import { buildGitlabWorld } from "../gitlab/index.js";
import type { GitlabWorld } from "../gitlab/world/records.js";
import type { WorldSeed } from "./schema.js";

/** The worlds of both services that one seed describes. */
export interface Worlds {
  github: GithubWorld;
  gitlab: GitlabWorld;
}

/**
 * Builds each service's world from a checked seed; throws SeedProblem naming the offending entry.
 */
export function buildWorlds(seed: WorldSeed): Worlds {
  return { github: buildGithubWorld(seed), gitlab: buildGitlabWorld(seed) };
}
