import type { Area } from "../core/area.js";
import type { SeedSlice, SeedView } from "../core/seed.js";
import type { GitlabTypes } from "./http.js";
import type { GitlabWorld, Group, Project, User } from "./world/records.js";

/**
 * An area of GitLab's planning paths (core/area.ts), listed in gitlab/index.ts. Besides what every
 * area has, a GitLab area may add to the projects `--generate-projects N` makes and to the fields
 * of a project's and a group's answer.
 */
export interface GitlabArea<S extends SeedSlice = SeedSlice> extends Area<GitlabTypes, S> {
  /**
   * For a seed that gets generated projects, what the area adds to each: a function that fills
   * the index-th generated project (1-based), an entry as written that the areas before it filled.
   * `groups`: the full paths the projects are spread over, in turn; `full`: the generation of a
   * drift-check benchmark, where each area adds the state a configuration manages.
   */
  generateProjects?(
    seed: SeedView<S>,
    generation: ProjectGeneration,
  ): (entry: Record<string, unknown>, index: number) => void;
  /**
   * The fields of a project's answer (`GET /projects/:id`, the project listings; `simple`: the
   * `simple=true` listing's) that the area keeps: GitLab answers a project's settings in the
   * project's own shape, while the area keeps them beside the world's record.
   */
  projectFields?(world: GitlabWorld, project: Project, simple: boolean): Record<string, unknown>;
  /** Likewise the fields of a group's answer (`GET /groups/:id`, the group listings) it keeps. */
  groupFields?(world: GitlabWorld, group: Group): Record<string, unknown>;
  /**
   * The fields only a single group's answer (`GET /groups/:id`, GitLab's GroupDetail) shows that
   * the area keeps (its shares), not the listings'.
   */
  groupDetailFields?(world: GitlabWorld, group: Group): Record<string, unknown>;
  /**
   * The fields of a member's answer (the members listings, `GET …/members/:user_id`, a write's
   * answer) the area keeps, by the group or project the user is a direct member of.
   */
  memberFields?(world: GitlabWorld, source: Group | Project, user: User): Record<string, unknown>;
}

/** What `--generate-projects` makes: how many, spread over which groups, with which profile. */
export interface ProjectGeneration {
  groups: readonly string[];
  profile: "basic" | "full";
}

/** Defines an area; its seed slice types what its build and demo part see. */
export function gitlabArea<S extends SeedSlice = Record<never, never>>(
  area: Omit<GitlabArea<S>, "seed"> & { seed?: S },
): GitlabArea<S> {
  return { ...area, seed: area.seed ?? ({} as S) };
}
