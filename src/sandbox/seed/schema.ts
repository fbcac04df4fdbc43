import type * as z from "zod";
import { composeSeedSchema } from "../core/seed.js";
import { GITHUB_AREAS } from "../github/index.js";
import { GITLAB_AREAS } from "../gitlab/index.js";

/**
 * The world a sandbox starts with. The YAML seed file (`--seed FILE`) has exactly this shape, and
 * the built-in demo world is a value of it; both go through the same checks when the sandbox
 * starts. Each area describes its part (core/seed.ts); this is every area's of both services.
 */

type Slice = (typeof GITHUB_AREAS)[number]["seed"] | (typeof GITLAB_AREAS)[number]["seed"];

const SLICES: readonly Slice[] = [...GITHUB_AREAS, ...GITLAB_AREAS].map((area) => area.seed);

export const worldSeedSchema = composeSeedSchema<Slice>(SLICES);

/** A seed as written (defaults may be missing). */
export type WorldSeedInput = z.input<typeof worldSeedSchema>;
/** A seed after checking, with every default filled in. */
export type WorldSeed = z.output<typeof worldSeedSchema>;
