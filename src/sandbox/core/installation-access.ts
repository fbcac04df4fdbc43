import { DOCS, idParam, type Reply } from "./http-support.js";
import type { Match } from "./router.js";
import { type AppPermissionLevel, covers, type Installation, type World } from "./world.js";

/** Permission → the least level it needs; every permission of the set is needed. */
type PermissionSet = Readonly<Record<string, AppPermissionLevel>>;

/**
 * What an installation token may call, by `METHOD pattern`: the permission sets GitHub accepts,
 * any one of which is enough. From GitHub's "Permissions required for GitHub Apps"
 * (docs.github.com/en/rest/authentication/permissions-required-for-github-apps, in the copy
 * octokit/app-permissions keeps as cache/api.github.com.html, last changed 2023-11-01), where an
 * operation listed under several permissions, each naming the others under "Additional
 * permissions", is one of the page's "endpoints [that] work with any one permission from a set" —
 * except issue comments and edits (BY_TARGET) and custom properties (below). Not on that page: `PATCH …/properties/values` of a repository, whose permission is
 * `repository_custom_properties` ("to view and edit custom properties for a repository", the
 * app-permissions schema in @octokit/openapi); `GET /apps/{app_slug}`, which needs none; `GET
 * /installation/repositories`, an installation's list of its own repositories, which needs none
 * either. The organization migrations are `enabledForGitHubApps: false` in @octokit/openapi, and a
 * user's gists and migrations, `GET /user` and `GET /user/repos` belong to a user: none is here,
 * so an installation is refused them. (The page lists `GET /user/repos` under Metadata for user
 * access tokens only: its token types name no IAT, and the data GitHub's documentation builds the
 * page from says `"server-to-server": false`, github/docs
 * src/github-apps/data/fpt-2022-11-28/server-to-server-permissions.json.)
 */
const ACCEPTED: Readonly<Record<string, readonly PermissionSet[]>> = {
  "GET /repos/:owner/:repo": [{ metadata: "read" }],
  "GET /orgs/:org/repos": [{ metadata: "read" }],
  "GET /users/:user/repos": [{ metadata: "read" }],
  "GET /repos/:owner/:repo/branches": [{ contents: "read" }],
  "GET /repos/:owner/:repo/branches/*branch": [{ contents: "read" }],
  "GET /repos/:owner/:repo/branches/*branch/protection": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/branches/*branch/protection": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/branches/*branch/protection": [{ administration: "write" }],
  "GET /repos/:owner/:repo/hooks": [{ repository_hooks: "read" }],
  "POST /repos/:owner/:repo/hooks": [{ repository_hooks: "write" }],
  "GET /repos/:owner/:repo/hooks/:id": [{ repository_hooks: "read" }],
  "PATCH /repos/:owner/:repo/hooks/:id": [{ repository_hooks: "write" }],
  "DELETE /repos/:owner/:repo/hooks/:id": [{ repository_hooks: "write" }],
  "GET /repos/:owner/:repo/hooks/:id/config": [{ repository_hooks: "read" }],
  "PATCH /repos/:owner/:repo/hooks/:id/config": [{ repository_hooks: "write" }],
  "GET /repos/:owner/:repo/invitations": [{ administration: "read" }],
  "DELETE /repos/:owner/:repo/invitations/:id": [{ administration: "write" }],
  "GET /repos/:owner/:repo/issues": [{ issues: "read" }],
  "POST /repos/:owner/:repo/issues": [{ issues: "write" }],
  "GET /repos/:owner/:repo/issues/:number": [{ issues: "read" }],
  "POST /repos/:owner/:repo/pulls": [{ pull_requests: "write" }],
  "GET /repos/:owner/:repo/pulls/:number": [{ pull_requests: "read" }, { contents: "read" }],
  "PUT /repos/:owner/:repo/pulls/:number/merge": [{ contents: "write" }],
  "GET /repos/:owner/:repo/commits/:sha/pulls": [{ pull_requests: "read" }],
  "GET /repos/:owner/:repo/properties/values": [{ metadata: "read" }],
  "PATCH /repos/:owner/:repo/properties/values": [{ repository_custom_properties: "write" }],
  "GET /repos/:owner/:repo/rulesets": [{ metadata: "read" }],
  "POST /repos/:owner/:repo/rulesets": [{ administration: "write" }],
  "GET /repos/:owner/:repo/rulesets/:id": [{ metadata: "read" }],
  "PUT /repos/:owner/:repo/rulesets/:id": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/rulesets/:id": [{ administration: "write" }],
  "GET /repos/:owner/:repo/rules/branches/*branch": [{ metadata: "read" }],
  // GitHub lists even the reads of organization rulesets under Administration write.
  "GET /orgs/:org/rulesets": [{ organization_administration: "write" }],
  "POST /orgs/:org/rulesets": [{ organization_administration: "write" }],
  "GET /orgs/:org/rulesets/:id": [{ organization_administration: "write" }],
  "PUT /orgs/:org/rulesets/:id": [{ organization_administration: "write" }],
  "DELETE /orgs/:org/rulesets/:id": [{ organization_administration: "write" }],
  "GET /repos/:owner/:repo/collaborators": [{ metadata: "read" }],
  "PUT /repos/:owner/:repo/collaborators/:username": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/collaborators/:username": [{ administration: "write" }],
  "PATCH /repos/:owner/:repo/invitations/:id": [{ administration: "write" }],
  "GET /repos/:owner/:repo/teams": [{ administration: "read" }],
  "GET /orgs/:org/members": [{ metadata: "read" }],
  "GET /orgs/:org/teams": [{ members: "read" }],
  "POST /orgs/:org/teams": [{ members: "write" }],
  "GET /orgs/:org/teams/:team_slug": [{ members: "read" }],
  // Not in that copy of the page: a team's own operations and memberships are given Members, which
  // its listing and creation take; a team's repositories repository Administration, as the
  // repository's collaborators; custom repository roles and organization roles the organization
  // permissions named after them (choices, docs/service-decisions.md "Access and teams").
  "PATCH /orgs/:org/teams/:team_slug": [{ members: "write" }],
  "DELETE /orgs/:org/teams/:team_slug": [{ members: "write" }],
  "GET /orgs/:org/teams/:team_slug/members": [{ members: "read" }],
  "GET /orgs/:org/teams/:team_slug/memberships/:username": [{ members: "read" }],
  "PUT /orgs/:org/teams/:team_slug/memberships/:username": [{ members: "write" }],
  "DELETE /orgs/:org/teams/:team_slug/memberships/:username": [{ members: "write" }],
  "PUT /orgs/:org/teams/:team_slug/repos/:owner/:repo": [{ administration: "write" }],
  "DELETE /orgs/:org/teams/:team_slug/repos/:owner/:repo": [{ administration: "write" }],
  "GET /orgs/:org/custom-repository-roles": [{ organization_custom_roles: "read" }],
  "GET /orgs/:org/organization-roles": [{ organization_administration: "read" }],
  "GET /orgs/:org/organization-roles/:role_id/teams": [{ organization_administration: "read" }],
  "GET /orgs/:org/installations": [{ organization_administration: "read" }],
  // The page also lists these under Members and organization Administration; each endpoint's own
  // page names one set ("The token must have the following permission set:
  // organization_custom_properties:read", docs.github.com/en/rest/orgs/custom-properties).
  "GET /orgs/:org/properties/schema": [{ organization_custom_properties: "read" }],
  "GET /orgs/:org/properties/schema/:name": [{ organization_custom_properties: "read" }],
  "PUT /orgs/:org/properties/schema/:name": [{ organization_custom_properties: "admin" }],
  "DELETE /orgs/:org/properties/schema/:name": [{ organization_custom_properties: "admin" }],
  "GET /orgs/:org/properties/values": [{ organization_custom_properties: "read" }],
  "PATCH /orgs/:org/properties/values": [{ organization_custom_properties: "write" }],
  // Organization profile, hooks, Actions: the page's "Administration", "Webhooks", "Secrets",
  // "Variables", "Dependabot secrets" and "Environments" permissions of repositories and organizations.
  "GET /orgs/:org": [{}],
  "PATCH /orgs/:org": [{ organization_administration: "write" }],
  "GET /orgs/:org/hooks": [{ organization_hooks: "read" }],
  "POST /orgs/:org/hooks": [{ organization_hooks: "write" }],
  "GET /orgs/:org/hooks/:id": [{ organization_hooks: "read" }],
  "PATCH /orgs/:org/hooks/:id": [{ organization_hooks: "write" }],
  "DELETE /orgs/:org/hooks/:id": [{ organization_hooks: "write" }],
  "GET /orgs/:org/hooks/:id/config": [{ organization_hooks: "read" }],
  "PATCH /orgs/:org/hooks/:id/config": [{ organization_hooks: "write" }],
  "GET /repos/:owner/:repo/actions/permissions": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/actions/permissions": [{ administration: "write" }],
  "GET /repos/:owner/:repo/actions/permissions/selected-actions": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/actions/permissions/selected-actions": [{ administration: "write" }],
  "GET /repos/:owner/:repo/actions/permissions/workflow": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/actions/permissions/workflow": [{ administration: "write" }],
  "GET /repos/:owner/:repo/actions/permissions/access": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/actions/permissions/access": [{ administration: "write" }],
  "GET /orgs/:org/actions/permissions": [{ organization_administration: "read" }],
  "PUT /orgs/:org/actions/permissions": [{ organization_administration: "write" }],
  "GET /orgs/:org/actions/permissions/selected-actions": [{ organization_administration: "read" }],
  "PUT /orgs/:org/actions/permissions/selected-actions": [{ organization_administration: "write" }],
  "GET /orgs/:org/actions/permissions/workflow": [{ organization_administration: "read" }],
  "PUT /orgs/:org/actions/permissions/workflow": [{ organization_administration: "write" }],
  "GET /orgs/:org/actions/permissions/repositories": [{ organization_administration: "read" }],
  "PUT /orgs/:org/actions/permissions/repositories": [{ organization_administration: "write" }],
  "GET /repos/:owner/:repo/actions/variables": [{ actions_variables: "read" }],
  "POST /repos/:owner/:repo/actions/variables": [{ actions_variables: "write" }],
  "GET /repos/:owner/:repo/actions/variables/:name": [{ actions_variables: "read" }],
  "PATCH /repos/:owner/:repo/actions/variables/:name": [{ actions_variables: "write" }],
  "DELETE /repos/:owner/:repo/actions/variables/:name": [{ actions_variables: "write" }],
  "GET /repos/:owner/:repo/environments/:environment/variables": [{ environments: "read" }],
  "POST /repos/:owner/:repo/environments/:environment/variables": [{ environments: "write" }],
  "GET /repos/:owner/:repo/environments/:environment/variables/:name": [{ environments: "read" }],
  "PATCH /repos/:owner/:repo/environments/:environment/variables/:name": [
    { environments: "write" },
  ],
  "DELETE /repos/:owner/:repo/environments/:environment/variables/:name": [
    { environments: "write" },
  ],
  "GET /orgs/:org/actions/variables": [{ organization_actions_variables: "read" }],
  "POST /orgs/:org/actions/variables": [{ organization_actions_variables: "write" }],
  "GET /orgs/:org/actions/variables/:name": [{ organization_actions_variables: "read" }],
  "PATCH /orgs/:org/actions/variables/:name": [{ organization_actions_variables: "write" }],
  "DELETE /orgs/:org/actions/variables/:name": [{ organization_actions_variables: "write" }],
  "GET /orgs/:org/actions/variables/:name/repositories": [
    { organization_actions_variables: "read" },
  ],
  "PUT /orgs/:org/actions/variables/:name/repositories": [
    { organization_actions_variables: "write" },
  ],
  "GET /repos/:owner/:repo/actions/secrets": [{ secrets: "read" }],
  "GET /repos/:owner/:repo/actions/secrets/public-key": [{ secrets: "read" }],
  "GET /repos/:owner/:repo/actions/secrets/:name": [{ secrets: "read" }],
  "PUT /repos/:owner/:repo/actions/secrets/:name": [{ secrets: "write" }],
  "DELETE /repos/:owner/:repo/actions/secrets/:name": [{ secrets: "write" }],
  "GET /repos/:owner/:repo/dependabot/secrets": [{ dependabot_secrets: "read" }],
  "GET /repos/:owner/:repo/dependabot/secrets/public-key": [{ dependabot_secrets: "read" }],
  "GET /repos/:owner/:repo/dependabot/secrets/:name": [{ dependabot_secrets: "read" }],
  "PUT /repos/:owner/:repo/dependabot/secrets/:name": [{ dependabot_secrets: "write" }],
  "DELETE /repos/:owner/:repo/dependabot/secrets/:name": [{ dependabot_secrets: "write" }],
  "GET /repos/:owner/:repo/environments/:environment/secrets": [{ environments: "read" }],
  "GET /repos/:owner/:repo/environments/:environment/secrets/public-key": [
    { environments: "read" },
  ],
  "GET /repos/:owner/:repo/environments/:environment/secrets/:name": [{ environments: "read" }],
  "PUT /repos/:owner/:repo/environments/:environment/secrets/:name": [{ environments: "write" }],
  "DELETE /repos/:owner/:repo/environments/:environment/secrets/:name": [{ environments: "write" }],
  "GET /orgs/:org/actions/secrets": [{ organization_secrets: "read" }],
  "GET /orgs/:org/actions/secrets/public-key": [{ organization_secrets: "read" }],
  "GET /orgs/:org/actions/secrets/:name": [{ organization_secrets: "read" }],
  "PUT /orgs/:org/actions/secrets/:name": [{ organization_secrets: "write" }],
  "DELETE /orgs/:org/actions/secrets/:name": [{ organization_secrets: "write" }],
  "GET /orgs/:org/actions/secrets/:name/repositories": [{ organization_secrets: "read" }],
  "PUT /orgs/:org/actions/secrets/:name/repositories": [{ organization_secrets: "write" }],
  "GET /orgs/:org/dependabot/secrets": [{ organization_dependabot_secrets: "read" }],
  "GET /orgs/:org/dependabot/secrets/public-key": [{ organization_dependabot_secrets: "read" }],
  "GET /orgs/:org/dependabot/secrets/:name": [{ organization_dependabot_secrets: "read" }],
  "PUT /orgs/:org/dependabot/secrets/:name": [{ organization_dependabot_secrets: "write" }],
  "DELETE /orgs/:org/dependabot/secrets/:name": [{ organization_dependabot_secrets: "write" }],
  "GET /orgs/:org/dependabot/secrets/:name/repositories": [
    { organization_dependabot_secrets: "read" },
  ],
  "PUT /orgs/:org/dependabot/secrets/:name/repositories": [
    { organization_dependabot_secrets: "write" },
  ],
  "GET /users/:user": [{ metadata: "read" }],
  // Labels are listed under both Issues and Pull requests, each naming the other as additional.
  "GET /repos/:owner/:repo/labels": [{ issues: "read" }, { pull_requests: "read" }],
  "POST /repos/:owner/:repo/labels": [{ issues: "write" }, { pull_requests: "write" }],
  "GET /repos/:owner/:repo/labels/:name": [{ issues: "read" }, { pull_requests: "read" }],
  "PATCH /repos/:owner/:repo/labels/:name": [{ issues: "write" }, { pull_requests: "write" }],
  "DELETE /repos/:owner/:repo/labels/:name": [{ issues: "write" }, { pull_requests: "write" }],
  "GET /repos/:owner/:repo/autolinks": [{ administration: "read" }],
  "POST /repos/:owner/:repo/autolinks": [{ administration: "write" }],
  "GET /repos/:owner/:repo/autolinks/:id": [{ administration: "read" }],
  "DELETE /repos/:owner/:repo/autolinks/:id": [{ administration: "write" }],
  // Environments are read under Actions and written under Administration.
  "GET /repos/:owner/:repo/environments": [{ actions: "read" }],
  "GET /repos/:owner/:repo/environments/:name": [{ actions: "read" }],
  "PUT /repos/:owner/:repo/environments/:name": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/environments/:name": [{ administration: "write" }],
  "GET /repos/:owner/:repo/environments/:name/deployment-branch-policies": [{ actions: "read" }],
  "POST /repos/:owner/:repo/environments/:name/deployment-branch-policies": [
    { administration: "write" },
  ],
  "GET /repos/:owner/:repo/environments/:name/deployment-branch-policies/:id": [
    { actions: "read" },
  ],
  "PUT /repos/:owner/:repo/environments/:name/deployment-branch-policies/:id": [
    { administration: "write" },
  ],
  "DELETE /repos/:owner/:repo/environments/:name/deployment-branch-policies/:id": [
    { administration: "write" },
  ],
  "GET /apps/:app_slug": [{}],
  // The GraphQL endpoint takes no permission itself; each field its query reads checks its own.
  "POST /graphql": [{}],
  "GET /installation/repositories": [{}],
};

/**
 * The page lists these under both Issues and Pull requests, but GitHub takes the permission of what
 * the number is: Issues for an issue, Pull requests for a pull request ("Commenting on a PR via the
 * issues.createComment API keys its permission off the target resource, so pull-requests: write
 * covers it", ynab/ynab-sdk-ruby#95; a workflow token with Issues read is refused a pull request's
 * comments, github community discussion #210157).
 */
const BY_TARGET: Readonly<Record<string, AppPermissionLevel>> = {
  "PATCH /repos/:owner/:repo/issues/:number": "write",
  "GET /repos/:owner/:repo/issues/:number/comments": "read",
  "POST /repos/:owner/:repo/issues/:number/comments": "write",
  "GET /repos/:owner/:repo/issues/comments/:id": "read",
  "PATCH /repos/:owner/:repo/issues/comments/:id": "write",
  "DELETE /repos/:owner/:repo/issues/comments/:id": "write",
};

const RANK: Record<AppPermissionLevel, number> = { read: 1, write: 2, admin: 3 };

/**
 * What a public repository shows anyone: reads that take only these permissions ("This endpoint can
 * be used without authentication or the aforementioned permissions if only public resources are
 * requested", GitHub's pages of such reads, e.g. "Get all custom property values for a repository").
 */
const PUBLIC_READ = new Set(["metadata", "contents", "issues", "pull_requests"]);

/**
 * The permission sets the operation takes, any one enough; undefined where no installation may call
 * it. An issue operation takes the permission of what its number is, looked up only in a repository
 * the installation may see (else its answer would tell a hidden issue from a pull request).
 */
function acceptedSets(
  installation: Installation,
  method: string,
  match: Match,
  world: World,
): readonly PermissionSet[] | undefined {
  const operation = `${method} ${match.route.pattern}`;
  const level = BY_TARGET[operation];
  if (level === undefined) return ACCEPTED[operation];
  const { owner, repo: name, number, id } = match.params;
  const repo = world.repository(owner ?? "", name ?? "");
  if (repo === undefined || (repo.private && !covers(installation, repo))) {
    return [{ issues: level }];
  }
  const comment = world.issueComments.get(idParam(id) ?? 0);
  const issue =
    number !== undefined
      ? (world.issues.get(repo.id) ?? [])[(idParam(number) ?? 0) - 1]
      : comment?.issue.repo === repo
        ? comment.issue
        : undefined;
  return [issue?.pull !== undefined ? { pull_requests: level } : { issues: level }];
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
  match: Match,
  world: World,
): InstallationAccess {
  if (match.route.free) return {};
  const sets = acceptedSets(installation, method, match, world);
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
export function appJwtRefusal(match: Match): Reply | undefined {
  const { pattern, free } = match.route;
  const appEndpoint =
    pattern === "/app" || pattern.startsWith("/app/") || pattern.endsWith("/installation");
  return appEndpoint || free ? undefined : NOT_ACCESSIBLE;
}
