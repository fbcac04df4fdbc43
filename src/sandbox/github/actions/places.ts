import { environmentsOf } from "../environments/records.js";
import { type ActionsStore, storeOf } from "./records.js";
import { notFound, type Reply, type RequestContext } from "../http.js";
import { paginate } from "../../core/pagination.js";
import type { Account, Organization, Repository, GithubWorld } from "../world/records.js";
import { administeredOrganization } from "../world/access.js";
import { adminRepository } from "../world/access.js";

/**
 * Where variables and secrets live: a repository, one of its environments, or an organization. The
 * caller must administer it ("Authenticated users must have collaborator access to a repository to
 * create, update, or read secrets", the operations' descriptions; the sandbox asks for admin, as
 * GitHub's settings pages do, and organization owners for an organization).
 */
export interface Place {
  store: ActionsStore;
  /** Names the place's key pairs: `repository/1001`, `environment/1001/production`, `organization/100`. */
  keyPlace: string;
  /** The API URL of the place, for `selected_repositories_url`. */
  url: string;
  /** Set for an organization: its variables and secrets are shared with its repositories. */
  org?: Organization;
  repo?: Repository;
}

export function repositoryPlace(ctx: RequestContext): Place {
  const { repo } = adminRepository(ctx);
  return {
    store: storeOf(repo),
    keyPlace: `repository/${repo.id}`,
    url: `${ctx.base}/repos/${repo.owner.login}/${repo.name}`,
    repo,
  };
}

export function environmentPlace(ctx: RequestContext): Place {
  const { repo } = adminRepository(ctx);
  const environment = environmentsOf(repo).get((ctx.params.environment ?? "").toLowerCase());
  if (environment === undefined) throw notFound();
  return {
    store: storeOf(environment),
    keyPlace: `environment/${repo.id}/${environment.name.toLowerCase()}`,
    url: `${ctx.base}/repos/${repo.owner.login}/${repo.name}/environments/${encodeURIComponent(environment.name)}`,
    repo,
  };
}

export function organizationPlace(ctx: RequestContext): Place {
  const org = administeredOrganization(ctx);
  return {
    store: storeOf(org),
    keyPlace: `organization/${org.account.id}`,
    url: `${ctx.base}/orgs/${org.account.login}`,
    org,
  };
}

/** The paths of the three places, for routes that are the same at each. */
export const PLACES = [
  { prefix: "/repos/:owner/:repo", place: repositoryPlace, template: "/repos/{owner}/{repo}" },
  {
    prefix: "/repos/:owner/:repo/environments/:environment",
    place: environmentPlace,
    template: "/repos/{owner}/{repo}/environments/{environment_name}",
  },
  { prefix: "/orgs/:org", place: organizationPlace, template: "/orgs/{org}" },
] as const;

/**
 * The repositories of an organization by id, for `selected_repository_ids`: every id must be one of
 * its repositories (422 otherwise).
 */
export function selectedRepositories(
  ctx: RequestContext,
  org: Organization,
  ids: readonly unknown[],
  resource: string,
): Set<number> {
  const selected = new Set<number>();
  const unknown: string[] = [];
  for (const id of ids) {
    const number = typeof id === "string" && /^\d+$/.test(id) ? Number(id) : id;
    const repo = typeof number === "number" ? ctx.world.repositoriesById.get(number) : undefined;
    if (repo === undefined || repo.org !== org) unknown.push(String(id));
    else selected.add(repo.id);
  }
  if (unknown.length > 0) {
    throw ctx.invalid(
      [
        `${unknown.join(", ")} ${unknown.length === 1 ? "is not a repository" : "are not repositories"} of ${org.account.login}`,
      ],
      resource,
    );
  }
  return selected;
}

/**
 * A page of the repositories a selection holds, as GitHub's `…/repositories` listings answer it:
 * `{total_count, repositories}`, by id, in the shape the operation publishes.
 */
export function repositoryPage(
  ctx: RequestContext,
  ids: Iterable<number>,
  shape: (base: string, world: GithubWorld, repo: Repository, caller: Account | null) => unknown,
): Reply {
  const repos = [...ids]
    .map((id) => ctx.world.repositoriesById.get(id))
    .filter((repo) => repo !== undefined)
    .sort((a, b) => a.id - b.id);
  const page = paginate(ctx, repos);
  return {
    status: 200,
    body: {
      total_count: repos.length,
      repositories: page.items.map((repo) => shape(ctx.base, ctx.world, repo, ctx.caller)),
    },
    headers: page.headers,
  };
}
