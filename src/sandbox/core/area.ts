import type { FamilyTypes } from "./http-support.js";
import type { Route } from "./router.js";
import type { SeedPart, SeedSlice, SeedView } from "./seed.js";

/**
 * An area of a family: what the sandbox serves of one kind (labels, hooks, boards …) or of the
 * family's world itself (accounts, repositories; users, groups, projects). An area owns its
 * records, its routes, its slice of the seed format, its part of the demo world, and builds its
 * records from a checked seed. A family lists its areas in one place (github/index.ts,
 * gitlab/index.ts), the way `KINDS` lists kinds; each family adds what it needs of its areas
 * (github/area.ts, gitlab/area.ts).
 */
export interface Area<F extends FamilyTypes, S extends SeedSlice> {
  /** Named in messages and docs. */
  name: string;
  routes?: readonly Route<F>[];
  /** The fields the area adds to entries of the seed's lists. */
  seed: S;
  /**
   * The field that names an entry of a list the area defines (`full_name` of `repositories`): the
   * demo world's parts for that list are merged entry by entry on it.
   */
  keys?: { readonly [L in keyof S]?: keyof S[L] & string };
  /** The area's part of the demo world (entries of other areas' lists name theirs by key). */
  demo?: SeedPart<S>;
  /** Builds the area's records from a checked seed, after every area listed before it. */
  build?(world: F["world"], seed: SeedView<S>): void;
}
