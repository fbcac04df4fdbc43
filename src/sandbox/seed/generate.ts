import { maxOf, SeedError, type SeedSlice, type SeedView } from "../core/seed.js";
import type { Generation, GithubArea } from "../github/area.js";
import { GENERATED_COLLABORATORS } from "../github/access/index.js";
import { GENERATED_PROTECTIONS } from "../github/branch-protection/index.js";
import { GITHUB_AREAS } from "../github/index.js";
import type { GitlabArea } from "../gitlab/area.js";
import { GITLAB_AREAS } from "../gitlab/index.js";
import { GENERATED_RULESET } from "../github/rulesets/index.js";
import { GENERATED_TEAM_GRANTS } from "../github/team/index.js";
import { type WorldSeed, worldSeedSchema } from "./schema.js";

/**
 * What the `full` profile adds to every generated repository, each area's part of it: `main`
 * protected (a strict check from the demo world's ci-bot, one approving review) and `dev` (linear
 * history), a collaborator, the demo world's two teams, and a ruleset on the default branch that
 * only admins may bypass.
 */
export const GENERATED_FULL = {
  protections: GENERATED_PROTECTIONS,
  collaborators: GENERATED_COLLABORATORS,
  teams: GENERATED_TEAM_GRANTS,
  ruleset: GENERATED_RULESET,
} as const;

/** `basic`: branches, hooks and the team property; `full`: also what GENERATED_FULL lists. */
export type GeneratedProfile = Generation["profile"];

const AREAS: readonly GithubArea[] = GITHUB_AREAS;
const repositoryEntry = worldSeedSchema.shape.repositories.unwrap().element;

/**
 * Adds `acme/repo-0001` … `acme/repo-N` for scale tests and benchmarks, each area adding its
 * records to each (`GithubArea.generate`: the world makes the repository and its branches, the
 * webhooks area two hooks, the properties area the custom property `team`, team-01 … team-10 in
 * turn; the `full` profile adds GENERATED_FULL, the state a drift check of many repositories
 * reads).
 */
export function withGeneratedRepositories(
  seed: WorldSeed,
  count: number,
  profile: GeneratedProfile = "basic",
): WorldSeed {
  if (count === 0) return seed;
  const view: SeedView<SeedSlice> = seed;
  const generators = AREAS.flatMap((area) => area.generate?.(view, { count, profile }) ?? []);
  const generated: WorldSeed["repositories"] = [];
  for (let index = 1; index <= count; index++) {
    const entry: Record<string, unknown> = {};
    for (const generator of generators) generator.repository?.(entry, index);
    // Parsed, so each field the seed format defaults (repository settings among them) is filled.
    generated.push(repositoryEntry.parse(entry));
  }
  let result = seed;
  for (const generator of generators) {
    result = { ...result, ...(generator.lists?.(result) as Partial<WorldSeed>) };
  }
  return { ...result, repositories: [...result.repositories, ...generated] };
}

const GITLAB: readonly GitlabArea[] = GITLAB_AREAS;
const projectEntry = worldSeedSchema.shape.projects.unwrap().element;
const groupEntry = worldSeedSchema.shape.groups.unwrap().element;

/** What `--generate-projects` spreads its projects over, and what each holds. */
export interface ProjectGenerationOptions {
  /**
   * 1 (the default): every project in the group `acme` (the seed's first group when it has none of
   * that name); more: in that many subgroups `acme/team-001` … made for them.
   */
  groups?: number;
  profile?: GeneratedProfile;
}

/** The home group, and the subgroups a generation of `count` groups adds below it. */
function generatedGroups(seed: WorldSeed, count: number) {
  const home = seed.groups.find((entry) => entry.path === "acme") ?? seed.groups[0];
  if (home === undefined) throw new SeedError("--generate-projects needs a group in the seed");
  const homePath = home.parent === undefined ? home.path : `${home.parent}/${home.path}`;
  if (count <= 1) return { paths: [homePath], added: [] };
  const firstId = maxOf(seed.groups.map((entry) => entry.id));
  const added = Array.from({ length: count }, (_, index) => {
    const path = `team-${String(index + 1).padStart(3, "0")}`;
    return groupEntry.parse({ id: firstId + index + 1, path, name: path, parent: homePath });
  });
  return { paths: added.map((group) => `${homePath}/${group.path}`), added };
}

/**
 * Adds GitLab projects `project-00001` … `project-N` for tests and benchmarks of large listings
 * (more than GitLab's 10,000 counted records) and drift checks, each area adding its fields to each
 * (`GitlabArea.generateProjects`).
 */
export function withGeneratedProjects(
  seed: WorldSeed,
  count: number,
  options: ProjectGenerationOptions = {},
): WorldSeed {
  if (count === 0) return seed;
  const groups = generatedGroups(seed, options.groups ?? 1);
  const withGroups = { ...seed, groups: [...seed.groups, ...groups.added] };
  const view: SeedView<SeedSlice> = withGroups;
  const generation = { groups: groups.paths, profile: options.profile ?? "basic" };
  const fillers = GITLAB.flatMap((area) => area.generateProjects?.(view, generation) ?? []);
  const generated: WorldSeed["projects"] = [];
  for (let index = 1; index <= count; index++) {
    const entry: Record<string, unknown> = {};
    for (const fill of fillers) fill(entry, index);
    generated.push(projectEntry.parse(entry));
  }
  return { ...withGroups, projects: [...seed.projects, ...generated] };
}
