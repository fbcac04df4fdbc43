import type { Area } from "../core/area.js";
import type { SeedPath, SeedSlice, SeedView } from "../core/seed.js";
import type { SandboxStats } from "../core/stats.js";
import type { GraphqlPart } from "./graphql/context.js";
import type { GithubTypes, Route } from "./http.js";
import type { PermissionRow } from "./world/installation-access.js";
import type { Account, Grant, GithubWorld, Repository } from "./world/records.js";

/**
 * An area of GitHub's paths (core/area.ts), listed in github/index.ts. Besides what every area
 * has, a GitHub area may say what an App installation's token needs for each of its operations,
 * answer fields of GraphQL's `Repository` and objects of `node`, give access to repositories (a
 * collaborator's grant), add to a repository GitHub creates, add to the repositories `--generate`
 * makes, and build records for each seeded repository.
 */

export type { GraphqlPart };

/** What the family gives an area whose routes depend on how the sandbox was started. */
export interface GithubSetup {
  tokenTtlSeconds: number;
  stats: SandboxStats;
  graphqlTimeoutMs?: number;
  /** Every area's GraphQL parts, for the GraphQL endpoint. */
  graphql: readonly GraphqlPart[];
}

/** How `--generate N` was asked for. */
export interface Generation {
  count: number;
  profile: "basic" | "full";
}

/** What an area adds to the generated repositories, and to the seed they are added to. */
export interface Generator<S extends SeedSlice> {
  /**
   * Adds the area's fields to the index-th generated repository (1-based), an entry as written
   * that the areas before it have filled.
   */
  repository?(entry: Record<string, unknown>, index: number): void;
  /**
   * Lists of the seed (as checked) to put in its place, with what the generated repositories
   * need besides themselves (a property definition they use); entries keep other areas' fields.
   */
  lists?(seed: SeedView<S>): Partial<SeedView<S>>;
}

type RepositoryEntry<S extends SeedSlice> = "repositories" extends keyof S
  ? SeedView<S>["repositories"][number]
  : never;

export interface GithubArea<S extends SeedSlice = SeedSlice> extends Area<GithubTypes, S> {
  /** Routes whose table depends on how the sandbox was started (the Apps', GraphQL's). */
  routesFor?(setup: GithubSetup): readonly Route[];
  /**
   * For each seeded repository, in seed order and after every area's `build`, the records the
   * area keeps of it; areas in list order for each repository, so ids made in turn stay in the
   * seed's order (a label an issue names is made between the repository's labels and the next
   * repository's).
   */
  eachRepository?(
    world: GithubWorld,
    repo: Repository,
    entry: RepositoryEntry<S>,
    at: SeedPath,
  ): void;
  /** What an installation token needs for each operation of the area, by `METHOD pattern`. */
  permissions?: Readonly<Record<string, PermissionRow>>;
  /** Its fields of GraphQL's `Repository` and its `node` types (github/graphql/). */
  graphql?: GraphqlPart;
  /** A role users have on repositories through the area's records. */
  grants?: Grant;
  /** What a repository GitHub creates (`POST /orgs/{org}/repos`) starts with in this area. */
  created?(world: GithubWorld, repo: Repository, body?: Record<string, unknown>): void;
  /** Counts of the area's records an account's profile shows (`public_gists`, `private_gists`). */
  profileCounts?(world: GithubWorld, account: Account): Record<string, number>;
  /** What the area adds to generated repositories (`--generate N`). */
  generate?(seed: SeedView<S>, run: Generation): Generator<S>;
  /** `GET /_sandbox/<name>` endpoints of the area. */
  inspect?: Readonly<Record<string, (world: GithubWorld) => unknown>>;
}

/** Defines an area; its seed slice types what its builds, generator and demo part see. */
export function githubArea<S extends SeedSlice = Record<never, never>>(
  area: Omit<GithubArea<S>, "seed"> & { seed?: S },
): GithubArea<S> {
  return { ...area, seed: area.seed ?? ({} as S) };
}
