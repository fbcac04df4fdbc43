import type { SeedSlice, SeedView } from "../core/seed.js";
import type { SandboxStats } from "../core/stats.js";
import type { GithubArea, GithubSetup } from "./area.js";
import { githubFamily } from "./family.js";
import type { Route } from "./http.js";
import { access } from "./access/index.js";
import { actions } from "./actions/index.js";
import { apps } from "./apps/index.js";
import { autolinks } from "./autolinks/index.js";
import { deployKeys } from "./deploy-keys/index.js";
import { pages } from "./pages/index.js";
import { branchProtection } from "./branch-protection/index.js";
import { environments } from "./environments/index.js";
import { gists } from "./gists/index.js";
import { graphql } from "./graphql/index.js";
import { invitations } from "./invitations/index.js";
import { issues } from "./issues/index.js";
import { labels } from "./labels/index.js";
import { migrations } from "./migrations/index.js";
import { organizationSettings } from "./organization-settings/index.js";
import { properties } from "./properties/index.js";
import { rulesets } from "./rulesets/index.js";
import { settings } from "./settings/index.js";
import { teams } from "./team/index.js";
import { webhooks } from "./webhooks/index.js";
import { world } from "./world/index.js";
import type { PermissionRow } from "./world/installation-access.js";
import { GithubWorld } from "./world/records.js";

/**
 * GitHub's areas, in the order their records are built from a seed and their routes are tried:
 * the world (accounts, organizations, Apps, repositories) first, then one area per kind or
 * service feature, each after the areas whose records its own name (teams before the access
 * granted to them, both before rulesets and protections that name them). The one place an area
 * is registered (docs/adding-a-kind.md). A route of a more specific path comes before one whose
 * `*rest` would take it (a branch's protection before the branch): an area lists its own that
 * way.
 */
export const GITHUB_AREAS = [
  world,
  apps,
  settings,
  organizationSettings,
  teams,
  access,
  invitations,
  webhooks,
  labels,
  issues,
  environments,
  autolinks,
  deployKeys,
  pages,
  actions,
  properties,
  rulesets,
  branchProtection,
  gists,
  migrations,
  graphql,
] as const satisfies readonly GithubArea[];

const AREAS: readonly GithubArea[] = GITHUB_AREAS;

/** Every area's routes, for a sandbox started with these options. */
export function githubRoutes(options: {
  tokenTtlSeconds: number;
  stats: SandboxStats;
  graphqlTimeoutMs?: number;
}): Route[] {
  const setup: GithubSetup = {
    ...options,
    graphql: AREAS.flatMap((area) => (area.graphql ? [area.graphql] : [])),
  };
  return AREAS.flatMap((area) => [...(area.routes ?? []), ...(area.routesFor?.(setup) ?? [])]);
}

/** What an installation token needs for each operation, every area's rows together. */
function permissionRows(): ReadonlyMap<string, PermissionRow> {
  const rows = new Map<string, PermissionRow>();
  for (const area of AREAS) {
    for (const [operation, row] of Object.entries(area.permissions ?? {})) {
      if (rows.has(operation)) throw new Error(`${operation}'s permissions are given twice`);
      rows.set(operation, row);
    }
  }
  return rows;
}

/**
 * GitHub's world built from a checked seed: each area's records, in the order listed, then what
 * areas keep of each seeded repository, repository by repository (`GithubArea.eachRepository`).
 */
export function buildGithubWorld(seed: SeedView<SeedSlice>): GithubWorld {
  const world = new GithubWorld({
    grants: AREAS.flatMap((area) => area.grants ?? []),
    created: AREAS.flatMap((area) => area.created ?? []),
    profileCounts: AREAS.flatMap((area) => area.profileCounts ?? []),
  });
  for (const area of AREAS) area.build?.(world, seed);
  const entries = seed.repositories ?? [];
  world.seeded.repositories.forEach((repo, index) => {
    const entry = entries[index];
    if (entry === undefined) return;
    for (const area of AREAS) area.eachRepository?.(world, repo, entry, ["repositories", index]);
  });
  return world;
}

/** The GitHub family of a sandbox, over its world. */
export function githubService(world: GithubWorld, options: Parameters<typeof githubRoutes>[0]) {
  const inspect: Record<string, () => unknown> = {};
  for (const area of AREAS) {
    for (const [name, read] of Object.entries(area.inspect ?? {}))
      inspect[name] = () => read(world);
  }
  return githubFamily(world, githubRoutes(options), inspect, permissionRows());
}
