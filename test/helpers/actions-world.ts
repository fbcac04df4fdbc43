import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { demoWorld } from "../../src/sandbox/index.js";

/** The environments acme/api has in the Actions world. */
export const ENVIRONMENTS = ["production", "staging"] as const;

/**
 * A seed file of the demo world in which acme/api also has the deployment environments
 * `production` and `staging`, for the variables and secrets of environments.
 */
export function actionsWorldFile(): string {
  const seed = structuredClone(demoWorld);
  const api = seed.repositories?.find((repo) => repo.full_name === "acme/api");
  if (api === undefined) throw new Error("the demo world has no acme/api");
  api.environments = ENVIRONMENTS.map((name) => ({ name }));
  const file = join(mkdtempSync(join(tmpdir(), "forgeplan-actions-")), "world.yaml");
  writeFileSync(file, stringify(seed));
  return file;
}
