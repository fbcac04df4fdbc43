import { idParam, notFound, ok, type RequestContext, requireCaller } from "./http-support.js";
import { paginate } from "./pagination.js";
import type { Route } from "./router.js";
import { authenticatedUser, gist, migration, minimalRepository } from "./shapes.js";
import type { Gist, Migration } from "./world.js";

/** The caller's own account, gists, rate limit and migrations (spec endpoints 4–7). */

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function sinceFilter(ctx: RequestContext): number | undefined {
  const since = ctx.query.get("since");
  if (since === null) return undefined;
  const time = ISO_8601.test(since) ? Date.parse(since) : Number.NaN;
  if (Number.isNaN(time)) {
    throw ctx.invalid(
      [`since: '${since}' is not a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ`],
      "Gist",
    );
  }
  return time;
}

function newestFirst(a: Gist, b: Gist): number {
  if (a.updated_at !== b.updated_at) return a.updated_at < b.updated_at ? 1 : -1;
  return a.id < b.id ? -1 : 1;
}

function userMigration(ctx: RequestContext): Migration {
  const caller = requireCaller(ctx);
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : ctx.world.migrations.get(id);
  // Only the migration's owner may see it; everyone else is told it does not exist.
  if (!found || found.owner.id !== caller.id) throw notFound();
  return found;
}

function orgMigration(ctx: RequestContext): Migration {
  const caller = requireCaller(ctx);
  const org = ctx.world.organizations.get((ctx.params.org ?? "").toLowerCase());
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : ctx.world.migrations.get(id);
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
  const page = paginate(ctx, value.repositories, "github");
  return {
    status: 200,
    body: page.items.map((repo) => minimalRepository(ctx.base, ctx.world, repo, ctx.caller)),
    headers: page.headers,
  };
}

export const accountRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/user",
    handler: (ctx) => ok(authenticatedUser(ctx.base, requireCaller(ctx))),
  },
  {
    method: "GET",
    pattern: "/gists",
    handler: (ctx) => {
      const since = sinceFilter(ctx);
      const source = ctx.caller
        ? (ctx.world.gistsByOwner.get(ctx.caller.id) ?? [])
        : ctx.world.gists.filter((item) => item.public);
      const selected = source
        .filter((item) => since === undefined || Date.parse(item.updated_at) > since)
        .sort(newestFirst);
      const page = paginate(ctx, selected, "github");
      return {
        status: 200,
        body: page.items.map((item) => gist(ctx.base, item)),
        headers: page.headers,
      };
    },
  },
  {
    method: "GET",
    pattern: "/rate_limit",
    free: true,
    handler: (ctx) => ok(ctx.rateOverview()),
  },
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
