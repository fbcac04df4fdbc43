import type { SeedSlice, SeedView } from "../core/seed.js";
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

/**
 * Adds GitLab projects `project-00001` … `project-N` for tests and benchmarks of large listings
 * (more than GitLab's 10,000 counted records), each area adding its fields to each
 * (`GitlabArea.generateProjects`).
 */
export function withGeneratedProjects(seed: WorldSeed, count: number): WorldSeed {
  if (count === 0) return seed;
  const view: SeedView<SeedSlice> = seed;
  const fillers = GITLAB.flatMap((area) => area.generateProjects?.(view) ?? []);
  const generated: WorldSeed["projects"] = [];
  for (let index = 1; index <= count; index++) {
    const entry: Record<string, unknown> = {};
    for (const fill of fillers) fill(entry, index);
    generated.push(projectEntry.parse(entry));
  }
  return { ...seed, projects: [...seed.projects, ...generated] };
}
