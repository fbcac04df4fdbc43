import * as z from "zod";
import { check, login } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { resolveRole } from "../world/records.js";
import { accessPermissions } from "./app-permissions.js";
import { accessGraphql } from "./graphql.js";
import { collaboratorsOf, directGrant } from "./records.js";
import { accessRoutes } from "./routes.js";
import { userRepositoryRoutes } from "./user-repos.js";

/**
 * Who has access to a repository (the `access` kind): its collaborators, the teams granted it,
 * the organization's roles, and the repositories a user is affiliated with.
 */

/** What the `full` profile of `--generate` grants on each repository. */
export const GENERATED_COLLABORATORS = { "octo-dev": "push" } as const;

export const access = githubArea({
  name: "access",
  seed: {
    /** Direct grants: pull | triage | push | maintain | admin, or a custom role of the organization. */
    repositories: { collaborators: z.record(login, z.string().min(1)).default({}) },
  },
  demo: {
    repositories: [
      { full_name: "acme/api", collaborators: { "octo-dev": "push", mona: "triage" } },
      { full_name: "acme/web", collaborators: { "octo-dev": "push" } },
    ],
  },
  build(world, seed) {
    seed.repositories.forEach((repoSeed, index) => {
      const repo = world.seeded.repositories[index];
      if (repo === undefined) return;
      for (const [name, written] of Object.entries(repoSeed.collaborators)) {
        const at = ["repositories", index, "collaborators", name];
        const user = world.account(name);
        check(user?.type === "User", at, `unknown user '${name}'`);
        const role = resolveRole(repo.org, written);
        check(
          role !== undefined,
          at,
          `'${written}' is not pull, triage, push, maintain, admin or a custom role of ${repo.owner.login}`,
        );
        collaboratorsOf(repo).set(user.id, role);
      }
    });
  },
  grants: directGrant,
  generate: (_seed, run) => ({
    repository: (entry) => {
      entry.collaborators = run.profile === "full" ? { ...GENERATED_COLLABORATORS } : {};
    },
  }),
  routes: [...accessRoutes, ...userRepositoryRoutes],
  permissions: accessPermissions,
  graphql: accessGraphql,
});
