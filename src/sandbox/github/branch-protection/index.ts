import * as z from "zod";
import { check, SeedProblem } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { worldSeed } from "../world/seed.js";
import { protectionPermissions } from "./app-permissions.js";
import { protectionGraphql } from "./graphql.js";
import { protectionFromBody } from "./record.js";
import { recentChecksOf, setProtection } from "./records.js";
import { branchProtectionRoutes } from "./routes.js";

/**
 * What the `full` profile of `--generate` protects on each repository, as a user's repositories
 * have it: `main` (a strict check from the demo world's ci-bot, one approving review) and `dev`
 * (linear history).
 */
export const GENERATED_PROTECTIONS = {
  main: {
    required_status_checks: { strict: true, checks: [{ context: "ci/build", app_id: 15368 }] },
    enforce_admins: false,
    required_pull_request_reviews: {
      dismiss_stale_reviews: true,
      require_code_owner_reviews: false,
      required_approving_review_count: 1,
      require_last_push_approval: false,
    },
    restrictions: null,
  },
  dev: {
    required_status_checks: null,
    enforce_admins: false,
    required_pull_request_reviews: null,
    restrictions: null,
    required_linear_history: true,
  },
} as const;

/**
 * Classic branch protections (the `branch_protection` kind) and the branches' reads, which say
 * whether each is protected. A seeded branch's `protection` (the world describes the branches,
 * world/seed.ts) is checked like a PUT of it.
 */
export const branchProtection = githubArea({
  name: "branch-protection",
  seed: {
    repositories: {
      /** Which app last reported each status check: required checks without an app_id are bound to it. */
      recent_checks: z.record(z.string(), z.number().int()).default({}),
      branches: worldSeed.repositories.branches,
    },
  },
  demo: {
    repositories: [
      {
        full_name: "acme/api",
        recent_checks: { "ci/build": 15368 },
        // The world's branches of acme/api, `main` protected.
        branches: [
          {
            name: "main",
            protection: {
              required_status_checks: {
                strict: true,
                checks: [{ context: "ci/build", app_id: 15368 }],
              },
              enforce_admins: false,
              required_pull_request_reviews: {
                dismiss_stale_reviews: true,
                require_code_owner_reviews: false,
                required_approving_review_count: 1,
                require_last_push_approval: false,
              },
              restrictions: null,
              required_signatures: false,
            },
          },
          { name: "release" },
        ],
      },
    ],
  },
  /** Protections are applied after every repository and App exists, with the same checks as a PUT. */
  build(world, seed) {
    seed.repositories.forEach((repoSeed, index) => {
      const repo = world.seeded.repositories[index];
      if (repo === undefined) return;
      const checks = recentChecksOf(repo);
      for (const [context, appId] of Object.entries(repoSeed.recent_checks)) {
        checks.set(context, appId);
        check(
          world.appsById.has(appId),
          ["repositories", index, "recent_checks", context],
          `unknown app id ${appId}`,
        );
      }
    });
    seed.repositories.forEach((repoSeed, repoIndex) => {
      const repo = world.seeded.repositories[repoIndex];
      if (repo === undefined) return;
      repoSeed.branches.forEach((branchSeed, branchIndex) => {
        if (!branchSeed.protection) return;
        const { required_signatures: signatures, ...body } = branchSeed.protection;
        const result = protectionFromBody(world, repo, body, signatures ?? false);
        const path = ["repositories", repoIndex, "branches", branchIndex, "protection"];
        if ("errors" in result) throw new SeedProblem(path, result.errors.join("; "));
        const branch = repo.branches.get(branchSeed.name);
        if (branch) setProtection(branch, result.protection);
      });
    });
  },
  generate: (_seed, run) => ({
    repository: (entry) => {
      entry.recent_checks = run.profile === "full" ? { "ci/build": 15368 } : {};
      if (run.profile !== "full") return;
      // The world made the branches; the profile protects them.
      for (const branch of entry.branches as Array<{ name: keyof typeof GENERATED_PROTECTIONS }>) {
        Object.assign(branch, { protection: structuredClone(GENERATED_PROTECTIONS[branch.name]) });
      }
    },
  }),
  routes: branchProtectionRoutes,
  permissions: protectionPermissions,
  graphql: protectionGraphql,
});
