import {
  forbidden,
  notFound,
  ok,
  type Reply,
  type RequestContext,
  requireCaller,
} from "../http.js";
import { paginate } from "../../core/pagination.js";
import { visibleRepository } from "./access.js";
import type { Route } from "../http.js";
import { fullRepository, minimalRepository, repository } from "./shapes.js";
import { covers, type GithubWorld, type Installation, type Repository } from "./records.js";

/** The answer of a repository listing: one page of `repos`, each in the listing's shape. */
export function listed(
  ctx: RequestContext,
  repos: readonly Repository[],
  shape: typeof minimalRepository,
): Reply {
  const page = paginate(ctx, repos);
  return {
    status: 200,
    body: page.items.map((repo) => shape(ctx.base, ctx.world, repo, ctx.caller)),
    headers: page.headers,
  };
}

/** An organization's repositories the caller can see; a plain slice when it can see them all. */
function organizationRepositories(ctx: RequestContext): Reply {
  const org = ctx.world.organizations.get((ctx.params.org ?? "").toLowerCase());
  if (!org) throw notFound();
  const all = ctx.world.repositoriesByOwner.get(org.account.login.toLowerCase()) ?? [];
  const visible = ctx.world.seesAllOf(org, ctx.caller)
    ? all
    : all.filter((repo) => ctx.world.can(repo, ctx.caller, "pull"));
  return listed(ctx, visible, minimalRepository);
}

/** `GET /installation/repositories`: the repositories of the installation's account it covers. */
function installationRepositories(world: GithubWorld, installation: Installation): Repository[] {
  const owned = world.repositoriesByOwner.get(installation.account.login.toLowerCase()) ?? [];
  return owned.filter((repo) => covers(installation, repo));
}

/**
 * GitHub's message to a token that is not an installation's, as clients record it (its documentation
 * says only "You must use an installation access token to access this endpoint", quoted in
 * octokit/octokit.js#1270); the operation's published answer is 403 with a Basic Error.
 */
const INSTALLATION_ONLY =
  "You must authenticate with an installation access token in order to list repositories for an installation.";

/** `GET /installation/repositories`: the installation's repositories, one page in GitHub's wrapper. */
function installationListing(ctx: RequestContext): Reply {
  const installation = requireCaller(ctx).installation;
  if (installation === undefined) throw forbidden(INSTALLATION_ONLY);
  const all = installationRepositories(ctx.world, installation);
  const page = paginate(ctx, all);
  return {
    status: 200,
    body: {
      total_count: all.length,
      repository_selection: installation.repositorySelection,
      repositories: page.items.map((repo) => repository(ctx.base, ctx.world, repo, ctx.caller)),
    },
    headers: page.headers,
  };
}

/** A repository, an organization's repositories, and an installation's. */
export const repositoryRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo",
    handler: (ctx) => ok(fullRepository(ctx.base, ctx.world, visibleRepository(ctx), ctx.caller)),
    // GitHub answers a repository with `Last-Modified`, its `updated_at` (github/http.ts).
    lastModified: (body) => {
      const updated = (body as { updated_at?: unknown } | undefined)?.updated_at;
      return typeof updated === "string" ? new Date(updated).toUTCString() : undefined;
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/repos",
    handler: organizationRepositories,
  },
  {
    method: "GET",
    pattern: "/installation/repositories",
    handler: installationListing,
  },
];
