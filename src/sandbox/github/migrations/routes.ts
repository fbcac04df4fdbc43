import { idParam, notFound, ok, type RequestContext, requireCaller } from "../http.js";
import { paginate } from "../../core/pagination.js";
import type { Route } from "../http.js";
import { type Migration, migrationsOf } from "./records.js";
import { migration } from "./shapes.js";
import { minimalRepository } from "../world/shapes.js";

/** User and organization migrations and their repositories (spec endpoints 6 and 7). */

function userMigration(ctx: RequestContext): Migration {
  const caller = requireCaller(ctx);
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : migrationsOf(ctx.world).get(id);
  // Only the migration's owner may see it; everyone else is told it does not exist.
  if (!found || found.owner.id !== caller.id) throw notFound();
  return found;
}

function orgMigration(ctx: RequestContext): Migration {
  const caller = requireCaller(ctx);
  const org = ctx.world.organizations.get((ctx.params.org ?? "").toLowerCase());
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : migrationsOf(ctx.world).get(id);
  if (!org || !found || found.owner.id !== org.account.id) throw notFound();
  if (!ctx.world.administers(org, caller)) throw notFound();
  return found;
}

/** `exclude` may repeat, use the `exclude[]` form, or hold a comma-separated list. */
function excluded(ctx: RequestContext): Set<string> {
  const values = [...ctx.query.getAll("exclude"), ...ctx.query.getAll("exclude[]")];
  return new Set(values.flatMap((value) => value.split(",")).map((value) => value.trim()));
}

function migrationRepositories(ctx: RequestContext, value: Migration) {
  const page = paginate(ctx, value.repositories);
  return {
    status: 200,
    body: page.items.map((repo) => minimalRepository(ctx.base, ctx.world, repo, ctx.caller)),
    headers: page.headers,
  };
}

export const migrationRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/user/migrations/:id",
    handler: (ctx) =>
      ok(
        migration(ctx.base, ctx.world, userMigration(ctx), requireCaller(ctx), {
          // GitHub's user migration status takes `exclude` as the organization's does
          // (migrations/get-status-for-authenticated-user in @octokit/openapi).
          withRepositories: !excluded(ctx).has("repositories"),
        }),
      ),
  },
  {
    method: "GET",
    pattern: "/user/migrations/:id/repositories",
    handler: (ctx) => migrationRepositories(ctx, userMigration(ctx)),
  },
  {
    method: "GET",
    pattern: "/orgs/:org/migrations/:id",
    handler: (ctx) => {
      const found = orgMigration(ctx);
      return ok(
        migration(ctx.base, ctx.world, found, requireCaller(ctx), {
          withRepositories: !excluded(ctx).has("repositories"),
        }),
      );
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/migrations/:id/repositories",
    handler: (ctx) => migrationRepositories(ctx, orgMigration(ctx)),
  },
];
