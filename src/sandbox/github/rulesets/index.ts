import * as z from "zod";
import { check, maxOf, SEEDED_AT, type SeedPath, SeedProblem } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { rulesetPermissions } from "./app-permissions.js";
import { rulesetGraphql } from "./graphql.js";
import { rulesetFromBody } from "./model.js";
import {
  organizationRulesetsOf,
  repositoryRulesetsOf,
  type Ruleset,
  rulesetIds,
  type RulesetSource,
} from "./records.js";
import { rulesetRoutes } from "./routes.js";

/** A ruleset in the write shape of its POST body, with its id; checked like a POST. */
const ruleset = z.object({ id: z.number().int().positive() }).catchall(z.unknown());

/**
 * What the `full` profile of `--generate` gives each repository: a ruleset on the default branch
 * that only admins may bypass, with id `GENERATED_RULESET_IDS + index`.
 */
export const GENERATED_RULESET = {
  name: "baseline",
  target: "branch",
  enforcement: "active",
  conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
  rules: [{ type: "deletion" }, { type: "non_fast_forward" }],
  bypass_actors: [{ actor_id: 5, actor_type: "RepositoryRole", bypass_mode: "always" }],
} as const;
const GENERATED_RULESET_IDS = 1_000_000;

/** Rulesets of repositories and organizations (the `ruleset` kind). */
export const rulesets = githubArea({
  name: "rulesets",
  seed: {
    organizations: { rulesets: z.array(ruleset).default([]) },
    repositories: { rulesets: z.array(ruleset).default([]) },
  },
  demo: {
    organizations: [
      {
        login: "acme",
        rulesets: [
          {
            id: 1,
            name: "acme baseline",
            target: "branch",
            enforcement: "active",
            conditions: {
              ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] },
              repository_name: { include: ["~ALL"], exclude: [], protected: false },
            },
            rules: [{ type: "deletion" }, { type: "non_fast_forward" }],
            bypass_actors: [{ actor_type: "OrganizationAdmin", bypass_mode: "always" }],
          },
        ],
      },
    ],
    repositories: [
      {
        full_name: "acme/api",
        rulesets: [
          {
            id: 2,
            name: "release tags",
            target: "tag",
            enforcement: "active",
            conditions: { ref_name: { include: ["refs/tags/v*"], exclude: [] } },
            rules: [
              { type: "deletion" },
              { type: "update", parameters: { update_allows_fetch_and_merge: false } },
            ],
            bypass_actors: [{ actor_id: 2, actor_type: "Team", bypass_mode: "always" }],
          },
        ],
      },
    ],
  },
  /**
   * Rulesets are added after every repository, team and app exists (they name them by id), each
   * with the same checks as a POST.
   */
  build(world, seed) {
    const ids = new Set<number>();
    const add = (
      source: RulesetSource,
      store: Map<number, Ruleset>,
      entries: ReadonlyArray<{ id: number } & Record<string, unknown>>,
      path: SeedPath,
    ) => {
      entries.forEach(({ id, ...body }, index) => {
        const at = [...path, "rulesets", index];
        check(!ids.has(id), [...at, "id"], `ruleset id ${id} is used twice`);
        ids.add(id);
        const result = rulesetFromBody(world, source, body);
        if ("errors" in result) throw new SeedProblem(at, result.errors.join("; "));
        store.set(id, { ...result.ruleset, id, created_at: SEEDED_AT, updated_at: SEEDED_AT });
      });
    };
    seed.organizations.forEach((orgSeed, index) => {
      const org = world.seeded.organizations[index];
      if (org) {
        const store = organizationRulesetsOf(org);
        add({ type: "Organization", org }, store, orgSeed.rulesets, ["organizations", index]);
      }
    });
    seed.repositories.forEach((repoSeed, index) => {
      const repo = world.seeded.repositories[index];
      if (repo) {
        const store = repositoryRulesetsOf(repo);
        add({ type: "Repository", repo }, store, repoSeed.rulesets, ["repositories", index]);
      }
    });
    rulesetIds(world).next = maxOf(ids) + 1;
  },
  generate: (_seed, run) => ({
    repository: (entry, index) => {
      entry.rulesets =
        run.profile === "full"
          ? [{ id: GENERATED_RULESET_IDS + index, ...structuredClone(GENERATED_RULESET) }]
          : [];
    },
  }),
  routes: rulesetRoutes,
  permissions: rulesetPermissions,
  graphql: rulesetGraphql,
});
