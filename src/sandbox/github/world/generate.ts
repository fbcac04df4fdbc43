import { SeedError, type SeedView } from "../../core/seed.js";
import type { Generation, Generator } from "../area.js";
import type { worldSeed } from "./seed.js";

/**
 * The repositories `--generate N` adds: `acme/repo-0001` … `acme/repo-N` (zero-padded to 4 digits,
 * wider when N needs it), private, with branches `main` and `dev`; the other areas add their records
 * to each (webhooks/, properties/; with the `full` profile access/, team/, branch-protection/,
 * rulesets/).
 */
export function generateRepositories(
  seed: SeedView<typeof worldSeed>,
  run: Generation,
): Generator<typeof worldSeed> {
  if (!seed.organizations.some((org) => org.login.toLowerCase() === "acme")) {
    throw new SeedError("--generate needs an organization 'acme' in the seed");
  }
  const width = Math.max(4, String(run.count).length);
  let repoId = 0;
  for (const repo of seed.repositories) repoId = Math.max(repoId, repo.id ?? 0);
  return {
    repository: (entry, index) => {
      Object.assign(entry, {
        full_name: `acme/repo-${String(index).padStart(width, "0")}`,
        id: Math.max(100_000, repoId) + index,
        private: true,
        description: null,
        default_branch: "main",
        allow_squash_merge: true,
        allow_rebase_merge: true,
        allow_merge_commit: true,
        created_at: "2026-01-02T09:00:00Z",
        branches: [{ name: "main" }, { name: "dev" }],
      });
    },
  };
}
