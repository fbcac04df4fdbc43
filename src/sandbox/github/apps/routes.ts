import { issueInstallationToken } from "../world/credentials.js";
import { DOCS, HttpError, idParam, isoTime, notFound, ok, type RequestContext } from "../http.js";
import { paginate } from "../../core/pagination.js";
import type { Route } from "../http.js";
import { administeredOrganization } from "../world/access.js";
import { app as appShape, installation as installationShape } from "./shapes.js";
import type { SandboxStats } from "../../core/stats.js";
import type { Account, App, Installation } from "../world/records.js";

/**
 * The GitHub App endpoints, which take the App's JWT: the App itself, its installations found by
 * id, organization, user or repository, and installation access tokens.
 */

/** The App of the JWT; a request without one is refused as GitHub refuses it. */
function requireApp(ctx: RequestContext): App {
  if (ctx.principal.kind !== "app") {
    throw new HttpError({
      status: 401,
      body: { message: "A JSON web token could not be decoded", documentation_url: DOCS },
    });
  }
  return ctx.principal.app;
}

/** The App's installation on an account; 404 (as GitHub) when it is not installed there. */
function installationOn(app: App, account: Account | undefined): Installation {
  for (const installation of app.installations.values()) {
    if (installation.account.id === account?.id) return installation;
  }
  throw notFound();
}

export function appRoutes(options: { tokenTtlSeconds: number; stats: SandboxStats }): Route[] {
  return [
    {
      method: "GET",
      pattern: "/app",
      handler: (ctx) => {
        const app = requireApp(ctx);
        return ok({ ...appShape(ctx.base, app), installations_count: app.installations.size });
      },
    },
    {
      method: "GET",
      pattern: "/app/installations/:id",
      handler: (ctx) => {
        const installation = requireApp(ctx).installations.get(idParam(ctx.params.id) ?? 0);
        if (installation === undefined) throw notFound();
        return ok(installationShape(ctx.base, installation));
      },
    },
    {
      method: "POST",
      pattern: "/app/installations/:id/access_tokens",
      operation: "POST /app/installations/{installation_id}/access_tokens",
      handler: (ctx) => {
        const installation = requireApp(ctx).installations.get(idParam(ctx.params.id) ?? 0);
        if (installation === undefined) throw notFound();
        const body = ctx.json();
        const narrowing = ["repositories", "repository_ids", "permissions"].filter(
          (key) => body[key] !== undefined,
        );
        if (narrowing.length > 0) {
          // Refused rather than ignored: ignoring would hand out more than was asked for.
          throw ctx.invalid(
            [
              `the sandbox issues tokens for the whole installation; ${narrowing.join(", ")} cannot narrow them`,
            ],
            "InstallationAccessToken",
          );
        }
        const issued = issueInstallationToken(
          ctx.world,
          installation,
          ctx.now(),
          options.tokenTtlSeconds,
        );
        options.stats.installation_tokens_issued++;
        return ok(
          {
            token: issued.token,
            expires_at: isoTime(issued.expiresAt),
            permissions: installation.permissions,
            repository_selection: installation.repositorySelection,
          },
          201,
        );
      },
    },
    {
      method: "GET",
      pattern: "/orgs/:org/installation",
      handler: (ctx) => {
        const org = ctx.world.organizations.get((ctx.params.org ?? "").toLowerCase());
        return ok(installationShape(ctx.base, installationOn(requireApp(ctx), org?.account)));
      },
    },
    {
      method: "GET",
      pattern: "/users/:user/installation",
      handler: (ctx) => {
        const account = ctx.world.account(ctx.params.user ?? "");
        return ok(installationShape(ctx.base, installationOn(requireApp(ctx), account)));
      },
    },
    {
      method: "GET",
      pattern: "/repos/:owner/:repo/installation",
      handler: (ctx) => {
        const app = requireApp(ctx);
        const repo = ctx.world.repository(ctx.params.owner ?? "", ctx.params.repo ?? "");
        const installation = installationOn(app, repo?.owner);
        if (
          repo === undefined ||
          (installation.repositorySelection === "selected" &&
            !installation.repositories.has(repo.id))
        ) {
          throw notFound();
        }
        return ok(installationShape(ctx.base, installation));
      },
    },
  ];
}

/**
 * What a client reads to name an App by its slug and an organization's installations (a ruleset's
 * bypass actors): these take a token, not the App's JWT.
 */
export const appDirectoryRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/orgs/:org/installations",
    handler: (ctx) => {
      const org = administeredOrganization(ctx);
      const all = [...ctx.world.installations.values()]
        .filter((item) => item.account.id === org.account.id)
        .sort((a, b) => a.id - b.id);
      const page = paginate(ctx, all);
      return {
        status: 200,
        body: {
          total_count: all.length,
          installations: page.items.map((item) => installationShape(ctx.base, item)),
        },
        headers: page.headers,
      };
    },
  },
  {
    method: "GET",
    pattern: "/apps/:app_slug",
    handler: (ctx) => {
      const found = ctx.world.apps.get((ctx.params.app_slug ?? "").toLowerCase());
      if (!found) throw notFound();
      return ok(appShape(ctx.base, found));
    },
  },
];
