import type { Area } from "../core/area.js";
import type { SeedSlice } from "../core/seed.js";
import type { GitlabTypes } from "./http.js";

/** An area of GitLab's planning paths (core/area.ts), listed in gitlab/index.ts. */
export type GitlabArea<S extends SeedSlice = SeedSlice> = Area<GitlabTypes, S>;

/** Defines an area; its seed slice types what its build and demo part see. */
export function gitlabArea<S extends SeedSlice = Record<never, never>>(
  area: Omit<GitlabArea<S>, "seed"> & { seed?: S },
): GitlabArea<S> {
  return { ...area, seed: area.seed ?? ({} as S) };
}
