import * as z from "zod";
import { check, maxOf, SEEDED_AT, type SeedPath, timestamp } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { hookPermissions } from "./app-permissions.js";
import { DEFAULT_CONTENT_TYPE } from "./config.js";
import { overlappingHook } from "./overlap.js";
import { type Hook, organizationHooksOf, repositoryHooksOf, seededHookIds } from "./records.js";
import { hookRoutes } from "./routes.js";

const hook = z.strictObject({
  id: z.number().int().positive(),
  /** The keys GitHub keeps (config.ts); a seed cannot hold others, as no request can. */
  config: z.strictObject({
    url: z.string(),
    content_type: z.string().optional(),
    secret: z.string().optional(),
    insecure_ssl: z.string().optional(),
  }),
  events: z.array(z.string()).default(["push"]),
  active: z.boolean().default(true),
  branch_filter: z.string().default("*"),
  authorization_header: z.string().optional(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});

type HookSeed = z.output<typeof hook>;

function hookFromSeed(seed: HookSeed): Hook {
  const created = seed.created_at ?? SEEDED_AT;
  return {
    id: seed.id,
    config: { content_type: DEFAULT_CONTENT_TYPE, insecure_ssl: "0", ...seed.config },
    events: [...new Set(seed.events)],
    active: seed.active,
    branch_filter: seed.branch_filter,
    authorization_header: seed.authorization_header,
    created_at: created,
    updated_at: seed.updated_at ?? created,
  };
}

/** The webhooks every repository `--generate` adds has. */
export const GENERATED_HOOK_URLS = [
  { url: "https://ci.acme.example/hooks/forge", events: ["push"] },
  { url: "https://chat.acme.example/notify", events: ["issues"] },
] as const;

/** Webhooks of repositories and organizations (the `webhook` kind); ids are one sequence. */
export const webhooks = githubArea({
  name: "webhooks",
  seed: {
    organizations: { hooks: z.array(hook).default([]) },
    repositories: { hooks: z.array(hook).default([]) },
  },
  demo: {
    organizations: [
      {
        login: "acme",
        hooks: [
          {
            id: 501,
            config: {
              url: "https://audit.acme.example/github",
              content_type: "json",
              secret: "sandbox-org-webhook-secret",
            },
            events: ["repository", "member"],
            active: true,
            created_at: "2026-01-05T08:00:00Z",
            updated_at: "2026-01-05T08:00:00Z",
          },
        ],
      },
    ],
    repositories: [
      {
        full_name: "acme/api",
        hooks: [
          {
            id: 1,
            config: {
              url: "https://ci.acme.example/hooks/forge",
              content_type: "json",
              secret: "sandbox-webhook-secret",
            },
            events: ["push", "pull_request"],
            active: true,
            branch_filter: "*",
            created_at: "2026-01-03T08:00:00Z",
            updated_at: "2026-01-03T08:00:00Z",
          },
          {
            id: 2,
            config: { url: "https://chat.acme.example/notify", content_type: "json" },
            events: ["issues", "issue_comment"],
            active: true,
            created_at: "2026-01-04T08:00:00Z",
            updated_at: "2026-01-04T08:00:00Z",
          },
        ],
      },
    ],
  },
  build(world, seed) {
    const ids = new Set<number>();
    const add = (
      into: Map<number, Hook>,
      entries: readonly HookSeed[],
      path: SeedPath,
      owner: "organization" | "repository",
    ) => {
      entries.forEach((hookSeed, at) => {
        const where = [...path, "hooks", at];
        check(!ids.has(hookSeed.id), [...where, "id"], `hook id ${hookSeed.id} is used twice`);
        ids.add(hookSeed.id);
        const built = hookFromSeed(hookSeed);
        // A seed holds only what requests could have made, so GitHub's rule for shared URLs holds.
        const clash = overlappingHook(into.values(), built);
        check(
          clash === undefined,
          where,
          `hook ${clash?.id} has the same url and an event in common ("Hook already exists on this ${owner}")`,
        );
        into.set(hookSeed.id, built);
      });
    };
    seed.organizations.forEach((orgSeed, index) => {
      const org = world.seeded.organizations[index];
      if (org === undefined) return;
      add(organizationHooksOf(org), orgSeed.hooks, ["organizations", index], "organization");
    });
    seed.repositories.forEach((repoSeed, index) => {
      const repo = world.seeded.repositories[index];
      if (repo === undefined) return;
      const hooks = repositoryHooksOf(repo);
      add(hooks, repoSeed.hooks, ["repositories", index], "repository");
      // A repository was last changed when its last hook was.
      for (const built of hooks.values()) {
        if (built.updated_at > repo.updated_at) repo.updated_at = built.updated_at;
      }
    });
    // Created hooks follow the repositories' own; ids an organization's seeded hooks took are
    // passed over.
    const next =
      maxOf(seed.repositories.flatMap((repoSeed) => repoSeed.hooks.map((h) => h.id))) + 1;
    seededHookIds(world, ids, next);
  },
  generate: (seed) => {
    let hookId = 0;
    for (const repo of seed.repositories)
      for (const seeded of repo.hooks) hookId = Math.max(hookId, seeded.id);
    // Hook ids are one sequence across repositories and organizations: no generated one takes one
    // an organization's hook has.
    const taken = new Set(seed.organizations.flatMap((org) => org.hooks.map((h) => h.id)));
    const nextHookId = () => {
      do hookId++;
      while (taken.has(hookId));
      return hookId;
    };
    return {
      repository: (entry) => {
        entry.hooks = GENERATED_HOOK_URLS.map((generated) => ({
          id: nextHookId(),
          config: { url: generated.url, content_type: "json" },
          events: [...generated.events],
          active: true,
          branch_filter: "*",
          created_at: SEEDED_AT,
          updated_at: SEEDED_AT,
        }));
      },
    };
  },
  routes: hookRoutes,
  permissions: hookPermissions,
});
