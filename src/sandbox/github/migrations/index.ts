import * as z from "zod";
import { check, login, type SeedPath, timestamp } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { migrationsOf } from "./records.js";
import { migrationRoutes } from "./routes.js";

/**
 * Migrations of users and organizations (the `migration` audit reads them). A pending or exporting
 * migration that locks its repositories holds them read-only (the world's `lockedRepositories`).
 */
export const migrations = githubArea({
  name: "migrations",
  seed: {
    migrations: {
      id: z.number().int().positive(),
      owner: login,
      state: z.enum(["pending", "exporting", "exported", "failed"]),
      lock_repositories: z.boolean().default(false),
      exclude_metadata: z.boolean().default(false),
      exclude_git_data: z.boolean().default(false),
      exclude_attachments: z.boolean().default(false),
      exclude_releases: z.boolean().default(false),
      exclude_owner_projects: z.boolean().default(false),
      org_metadata_only: z.boolean().default(false),
      repositories: z.array(z.string()),
      created_at: timestamp,
      updated_at: timestamp,
    },
  },
  demo: {
    migrations: [
      {
        id: 1,
        owner: "octo-admin",
        state: "exported",
        lock_repositories: false,
        repositories: ["octo-admin/dotfiles", "acme/web"],
        created_at: "2026-03-01T12:00:00Z",
        updated_at: "2026-03-01T12:30:00Z",
      },
      {
        id: 2,
        owner: "acme",
        state: "exported",
        lock_repositories: false,
        repositories: ["acme/api", "acme/web"],
        created_at: "2026-04-01T12:00:00Z",
        updated_at: "2026-04-01T13:00:00Z",
      },
    ],
  },
  build(world, seed) {
    const all = migrationsOf(world);
    seed.migrations.forEach((migrationSeed, index) => {
      const path: SeedPath = ["migrations", index];
      const owner = world.account(migrationSeed.owner);
      check(owner !== undefined, [...path, "owner"], `unknown account '${migrationSeed.owner}'`);
      check(
        !all.has(migrationSeed.id),
        [...path, "id"],
        `migration id ${migrationSeed.id} is used twice`,
      );
      const repositories = migrationSeed.repositories.map((fullName, at) => {
        const [repoOwner = "", name = ""] = fullName.split("/");
        const repo = world.repository(repoOwner, name);
        check(
          repo !== undefined,
          [...path, "repositories", at],
          `unknown repository '${fullName}'`,
        );
        return repo;
      });
      all.set(migrationSeed.id, { ...migrationSeed, owner, repositories });
      const running = migrationSeed.state === "pending" || migrationSeed.state === "exporting";
      if (migrationSeed.lock_repositories && running) {
        for (const repo of repositories) world.lockedRepositories.add(repo.id);
      }
    });
  },
  routes: migrationRoutes,
});
