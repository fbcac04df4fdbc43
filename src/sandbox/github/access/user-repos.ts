import { notFound, type Reply, type RequestContext, requireCaller, type Route } from "../http.js";
import type { Account, GithubWorld, Repository } from "../world/records.js";
import { listed } from "../world/repository-routes.js";
import { minimalRepository, repository } from "../world/shapes.js";
import { collaboratorsOf } from "./records.js";

/**
 * Which repositories GitHub's listings of a user's repositories hold, as their descriptions in
 * `@octokit/openapi` say: `GET /users/{username}/repos` "Lists public repositories for the specified
 * user", whoever asks (observed: octokit/octokit.js#968, "it does not return private repositories,
 * even when authenticated correctly"; PyGithub/PyGithub#1827); `GET /user/repos` lists those "that
 * the authenticated user has explicit permission (`:read`, `:write`, or `:admin`) to access",
 * private ones included.
 */

/** GitHub's affiliations: how a user comes to have explicit permission on a repository. */
const AFFILIATED: Readonly<Record<string, (repo: Repository, user: Account) => boolean>> = {
  owner: (repo, user) => repo.owner.id === user.id,
  collaborator: (repo, user) => collaboratorsOf(repo).has(user.id),
  // Through the organization's base permission: the sandbox keeps no team members.
  organization_member: (repo, user) =>
    repo.org !== null &&
    (repo.org.owners.has(user.id) ||
      (repo.org.members.has(user.id) && repo.org.basePermission !== "none")),
};

const EVERY_AFFILIATION = Object.keys(AFFILIATED);
const MEMBER = ["collaborator", "organization_member"];

type Visibility = "all" | "public" | "private";

/** What each `type` of `GET /user/repos` stands for, in affiliations and visibility. */
const AUTHENTICATED_TYPES: Readonly<
  Record<string, { affiliation: readonly string[]; visibility: Visibility }>
> = {
  all: { affiliation: EVERY_AFFILIATION, visibility: "all" },
  owner: { affiliation: ["owner"], visibility: "all" },
  public: { affiliation: EVERY_AFFILIATION, visibility: "public" },
  private: { affiliation: EVERY_AFFILIATION, visibility: "private" },
  member: { affiliation: MEMBER, visibility: "all" },
};

/** The `type`s of `GET /users/{username}/repos`, whose repositories are public whatever the type. */
const USER_TYPES: Readonly<Record<string, readonly string[]>> = {
  owner: ["owner"],
  member: MEMBER,
  all: EVERY_AFFILIATION,
};

/** GitHub's default order of both user listings: `sort=full_name`, ascending. */
function byFullName(a: Repository, b: Repository): number {
  const left = `${a.owner.login}/${a.name}`.toLowerCase();
  const right = `${b.owner.login}/${b.name}`.toLowerCase();
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * The repositories `user` has one of the affiliations named on (names GitHub does not know match
 * nothing), of the visibility asked for, in full-name order.
 */
function affiliatedRepositories(
  world: GithubWorld,
  user: Account,
  affiliation: readonly string[],
  visibility: Visibility,
): Repository[] {
  const tests = affiliation.flatMap((name) => AFFILIATED[name] ?? []);
  return [...world.repositories.values()]
    .filter((repo) => visibility === "all" || repo.private === (visibility === "private"))
    .filter((repo) => tests.some((test) => test(repo, user)))
    .sort(byFullName);
}

/**
 * `GET /users/{username}/repos`: the account's public repositories, of `type` owner (the default),
 * member or all. A value outside these is taken as the default, not refused: a choice, as GitHub
 * does not document its answer to one.
 */
export function publicRepositories(
  world: GithubWorld,
  account: Account,
  type: string | null,
): Repository[] {
  const affiliation = USER_TYPES[type ?? "owner"] ?? USER_TYPES.owner!;
  return affiliatedRepositories(world, account, affiliation, "public");
}

/** The query of `GET /user/repos`, each parameter as sent (null when absent). */
export interface AuthenticatedQuery {
  type: string | null;
  visibility: string | null;
  affiliation: string | null;
}

/**
 * `GET /user/repos`: the caller's repositories, private included, by `type` or by `affiliation`
 * (comma-separated; owner, collaborator and organization_member by default) and `visibility` (all by
 * default); an unknown `type` or `visibility` is taken as its default (a choice, as for
 * `publicRepositories`). Undefined when `type` comes with either of the others, which GitHub answers
 * 422 ("Will cause a `422` error if used in the same request as **visibility** or **affiliation**",
 * the parameter's description).
 */
export function authenticatedRepositories(
  world: GithubWorld,
  caller: Account,
  query: AuthenticatedQuery,
): Repository[] | undefined {
  if (query.type !== null) {
    if (query.visibility !== null || query.affiliation !== null) return undefined;
    const chosen = AUTHENTICATED_TYPES[query.type] ?? AUTHENTICATED_TYPES.all!;
    return affiliatedRepositories(world, caller, chosen.affiliation, chosen.visibility);
  }
  const affiliation = query.affiliation?.split(",").map((name) => name.trim()) ?? EVERY_AFFILIATION;
  const visibility = ["public", "private"].includes(query.visibility ?? "")
    ? (query.visibility as Visibility)
    : "all";
  return affiliatedRepositories(world, caller, affiliation, visibility);
}

/** `GET /user/repos` for the caller; an installation never gets here (installation-access.ts). */
function callerRepositories(ctx: RequestContext): Reply {
  const found = authenticatedRepositories(ctx.world, requireCaller(ctx), {
    type: ctx.query.get("type"),
    visibility: ctx.query.get("visibility"),
    affiliation: ctx.query.get("affiliation"),
  });
  if (found === undefined) {
    throw ctx.invalid(
      ["type cannot be used together with visibility or affiliation"],
      "Repository",
    );
  }
  return listed(ctx, found, repository);
}

/** A user's repositories, by the affiliations GitHub names. */
export const userRepositoryRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/users/:user/repos",
    handler: (ctx) => {
      const account = ctx.world.account(ctx.params.user ?? "");
      if (!account) throw notFound();
      const found = publicRepositories(ctx.world, account, ctx.query.get("type"));
      return listed(ctx, found, minimalRepository);
    },
  },
  {
    method: "GET",
    pattern: "/user/repos",
    // Named so that its 422 takes GitHub's Validation Error, the operation's published answer.
    operation: "GET /user/repos",
    handler: callerRepositories,
  },
];
