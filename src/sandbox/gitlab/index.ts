import type { SeedSlice, SeedView } from "../core/seed.js";
import type { GitlabArea } from "./area.js";
import { badges } from "./badges/index.js";
import { boards } from "./boards/index.js";
import { epicLinks } from "./epic-links/index.js";
import { issues } from "./issues/index.js";
import { mergeRequests } from "./merge-requests/index.js";
import { groupSettings } from "./group-settings/index.js";
import { gitlabLabels } from "./labels/index.js";
import { hooks } from "./hooks/index.js";
import { members } from "./members/index.js";
import { shares } from "./shares/index.js";
import { projectSettings } from "./project-settings/index.js";
import { protectedRefs } from "./protected-refs/index.js";
import { pushRules } from "./push-rules/index.js";
import { approvals } from "./approvals/index.js";
import { variables } from "./variables/index.js";
import { deployKeys } from "./deploy-keys/index.js";
import { protectedEnvironments } from "./protected-environments/index.js";
import { gitlabFamily, type GitlabSetup } from "./family.js";
import { gitlabGraphql } from "./graphql/index.js";
import type { Route } from "./http.js";
import { gitlabWorld } from "./world/index.js";
import { GitlabWorld } from "./world/records.js";

/**
 * GitLab's areas, in the order their records are built from a seed and their routes are tried:
 * the world (users, groups, projects) first, then one area per kind. The one place an area is
 * registered (docs/adding-a-kind.md).
 */
export const GITLAB_AREAS = [
  gitlabWorld,
  projectSettings,
  groupSettings,
  badges,
  members,
  shares,
  deployKeys,
  protectedRefs,
  pushRules,
  approvals,
  epicLinks,
  boards,
  variables,
  gitlabLabels,
  protectedEnvironments,
  hooks,
  mergeRequests,
  issues,
  gitlabGraphql,
] as const satisfies readonly GitlabArea[];

const AREAS: readonly GitlabArea[] = GITLAB_AREAS;

/** GitLab's planning paths under /api/v4, every area's. */
export const gitlabRoutes: Route[] = AREAS.flatMap((area) => area.routes ?? []);

/** GitLab's world built from a checked seed: each area's records, in the order listed. */
export function buildGitlabWorld(seed: SeedView<SeedSlice>): GitlabWorld {
  const world = new GitlabWorld({
    projectFields: AREAS.flatMap((area) => (area.projectFields ? [area.projectFields] : [])),
    groupFields: AREAS.flatMap((area) => (area.groupFields ? [area.groupFields] : [])),
    groupDetailFields: AREAS.flatMap((area) =>
      area.groupDetailFields ? [area.groupDetailFields] : [],
    ),
    memberFields: AREAS.flatMap((area) => (area.memberFields ? [area.memberFields] : [])),
  });
  for (const area of AREAS) area.build?.(world, seed);
  return world;
}

/** The GitLab family of a sandbox, over its world, run as `setup` says. */
export function gitlabService(world: GitlabWorld, setup: GitlabSetup) {
  return gitlabFamily(world, gitlabRoutes, setup);
}
