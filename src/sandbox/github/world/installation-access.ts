import { DOCS, type Reply } from "../http.js";
import type { Match } from "../../core/router.js";
import type { GithubTypes } from "../http.js";
import { type AppPermissionLevel, covers, type Installation, type GithubWorld } from "./records.js";

/** Permission → the least level it needs; every permission of the set is needed. */
export type PermissionSet = Readonly<Record<string, AppPermissionLevel>>;

/**
 * What an installation token needs to call an operation, by `METHOD pattern`: the permission sets
 * GitHub accepts, any one of which is enough, or how to tell them from the request (an issue's
 * number takes the permission of what it is). Each area lists its rows in its `app-permissions.ts`
 * (github/area.ts `permissions`); an operation no area lists is refused an installation.
 *
 * The rows are GitHub's "Permissions required for GitHub Apps"
 * (docs.github.com/en/rest/authentication/permissions-required-for-github-apps, in the copy
 * octokit/app-permissions keeps as cache/api.github.com.html, last changed 2023-11-01), where an
 * operation listed under several permissions, each naming the others under "Additional
 * permissions", is one of the page's "endpoints [that] work with any one permission from a set" —
 * except issue comments and edits (issues/app-permissions.ts) and custom properties
 * (properties/app-permissions.ts). Not on that page: `PATCH …/properties/values` of a repository,
 * whose permission is `repository_custom_properties` ("to view and edit custom properties for a
 * repository", the app-permissions schema in @octokit/openapi); `GET /apps/{app_slug}`, which
 * needs none; `GET /installation/repositories`, an installation's list of its own repositories,
 * which needs none either. The organization migrations are `enabledForGitHubApps: false` in @octokit/openapi, and a
 * user's gists and migrations, `GET /user` and `GET /user/repos` belong to a user: no area lists
 * them, so an installation is refused them. (The page lists `GET /user/repos` under Metadata for
 * user access tokens only: its token types name no IAT, and the data GitHub's documentation
 * builds the page from says `"server-to-server": false`, github/docs
 * src/github-apps/data/fpt-2022-11-28/server-to-server-permissions.json.)
 */
export type PermissionRow =
  | readonly PermissionSet[]
  | ((request: {
      installation: Installation;
      params: Record<string, string>;
      world: GithubWorld;
    }) => readonly PermissionSet[]);

const RANK: Record<AppPermissionLevel, number> = { read: 1, write: 2, admin: 3 };

/**
 * What a public repository shows anyone: reads that take only these permissions ("This endpoint can
 * be used without authentication or the aforementioned permissions if only public resources are
 * requested", GitHub's pages of such reads, e.g. "Get all custom property values for a repository").
 */
const PUBLIC_READ = new Set(["metadata", "contents", "issues", "pull_requests"]);

/**
 * The permission sets the operation takes, any one enough; undefined where no installation may call
 * it (no area lists the operation).
 */
function acceptedSets(
  installation: Installation,
  method: string,
  match: Match<GithubTypes>,
  world: GithubWorld,
  rows: ReadonlyMap<string, PermissionRow>,
): readonly PermissionSet[] | undefined {
  const row = rows.get(`${method} ${match.route.pattern}`);
  if (typeof row !== "function") return row;
  return row({ installation, params: match.params, world });
}

const NOT_ACCESSIBLE: Reply = {
  status: 403,
  body: { message: "Resource not accessible by integration", documentation_url: DOCS },
};
const NOT_FOUND: Reply = { status: 404, body: { message: "Not Found", documentation_url: DOCS } };

/**
 * GitHub's `X-Accepted-GitHub-Permissions`: the sets an operation accepts, separated by "; ", each
 * set's permissions by "," ("repository_projects=write; organization_projects=admin", GitHub's
 * changelog of 2023-08-10 that introduced the header); none for an operation that takes none.
 */
function acceptedHeader(sets: readonly PermissionSet[]): string | undefined {
  const written = sets
    .map((set) =>
      Object.entries(set)
        .map(([permission, level]) => `${permission}=${level}`)
        .join(","),
    )
    .filter((set) => set !== "");
  return written.length > 0 ? written.join("; ") : undefined;
}

export interface InstallationAccess {
  /** The answer instead of the handler's, when the installation may not make the request. */
  refusal?: Reply;
  /**
   * What the operation takes, sent with the answer; left out when the answer is not about
   * permissions (a repository or organization the installation does not reach).
   */
  accepted?: string;
}

/** Whether an installation's request may go on to its handler, and what its answer says it takes. */
export function installationAccess(
  installation: Installation,
  method: string,
  match: Match<GithubTypes>,
  world: GithubWorld,
  rows: ReadonlyMap<string, PermissionRow>,
): InstallationAccess {
  if (match.route.free) return {};
  const sets = acceptedSets(installation, method, match, world, rows);
  if (sets === undefined) return { refusal: NOT_ACCESSIBLE };
  const accepted = acceptedHeader(sets);
  const withHeader = accepted === undefined ? {} : { accepted };
  const publicRead =
    method === "GET" &&
    sets.some((set) => Object.keys(set).every((permission) => PUBLIC_READ.has(permission)));
  const { owner, repo: name, org } = match.params;
  const repo =
    owner !== undefined && name !== undefined ? world.repository(owner, name) : undefined;
  // A repository that does not exist is the handler's 404, with its own words.
  if (repo !== undefined && !covers(installation, repo)) {
    if (repo.private) return { refusal: NOT_FOUND };
    return publicRead ? withHeader : { refusal: NOT_ACCESSIBLE };
  }
  // An installation's organization permissions are for the organization it is installed on.
  if (org !== undefined && match.route.pattern !== "/orgs/:org/repos") {
    if (org.toLowerCase() !== installation.account.login.toLowerCase()) {
      return { refusal: NOT_ACCESSIBLE };
    }
  }
  if (repo !== undefined && !repo.private && publicRead) return withHeader;
  const granted = (set: PermissionSet) =>
    Object.entries(set).every(([permission, level]) => {
      const held = installation.permissions[permission];
      return held !== undefined && RANK[held] >= RANK[level];
    });
  return sets.some(granted) ? withHeader : { refusal: NOT_ACCESSIBLE, ...withHeader };
}

/**
 * A JWT authenticates the App only to the App endpoints (GitHub: "If a REST API endpoint requires
 * a JWT, the documentation for that endpoint will indicate that"); elsewhere it is refused like an
 * installation's request its permissions do not allow.
 */
export function appJwtRefusal(match: Match<GithubTypes>): Reply | undefined {
  const { pattern, free } = match.route;
  const appEndpoint =
    pattern === "/app" || pattern.startsWith("/app/") || pattern.endsWith("/installation");
  return appEndpoint || free ? undefined : NOT_ACCESSIBLE;
}
