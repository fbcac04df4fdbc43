import { DOCS, type Reply } from "./http-support.js";
import type { Match } from "./router.js";
import { covers, type Installation, type World } from "./world.js";

/**
 * What an installation token may reach: the repositories of its installation, and only the
 * operations its App permissions allow. GitHub's "Permissions required for GitHub Apps" names the
 * permission of each operation; reads need read or write, other methods write. A repository the
 * installation does not cover is hidden (404, as for any caller that cannot see it); an operation
 * its permissions do not allow, or one no installation can use (a user's own gists and
 * migrations), answers GitHub's 403 "Resource not accessible by integration".
 */
const PERMISSION_OF: Record<string, string> = {
  "/repos/:owner/:repo": "metadata",
  "/repos/:owner/:repo/branches": "metadata",
  "/repos/:owner/:repo/branches/*branch": "metadata",
  "/repos/:owner/:repo/branches/*branch/protection": "administration",
  "/repos/:owner/:repo/hooks": "repository_hooks",
  "/repos/:owner/:repo/hooks/:id": "repository_hooks",
  "/repos/:owner/:repo/invitations": "administration",
  "/repos/:owner/:repo/invitations/:id": "administration",
  "/repos/:owner/:repo/issues": "issues",
  "/repos/:owner/:repo/issues/:number": "issues",
  "/repos/:owner/:repo/issues/:number/comments": "issues",
  "/repos/:owner/:repo/issues/comments/:id": "issues",
  "/orgs/:org/repos": "metadata",
  "/users/:user/repos": "metadata",
  "/orgs/:org/migrations/:id": "organization_administration",
  "/orgs/:org/migrations/:id/repositories": "organization_administration",
};

const NOT_ACCESSIBLE: Reply = {
  status: 403,
  body: { message: "Resource not accessible by integration", documentation_url: DOCS },
};
const NOT_FOUND: Reply = { status: 404, body: { message: "Not Found", documentation_url: DOCS } };

/** The refusal of an installation's request, or undefined when it may go on to its handler. */
export function installationRefusal(
  installation: Installation,
  method: string,
  match: Match,
  world: World,
): Reply | undefined {
  const { pattern } = match.route;
  if (match.route.free) return undefined;
  const permission = PERMISSION_OF[pattern];
  if (permission === undefined) return NOT_ACCESSIBLE;
  const { owner, repo: name, org } = match.params;
  if (owner !== undefined && name !== undefined) {
    const repo = world.repository(owner, name);
    // A repository that does not exist is the handler's 404, with its own words.
    if (repo !== undefined && !covers(installation, repo)) {
      if (repo.private) return NOT_FOUND;
      if (permission !== "metadata") return NOT_ACCESSIBLE;
    }
  }
  if (org !== undefined && pattern.startsWith("/orgs/:org/migrations")) {
    if (org.toLowerCase() !== installation.account.login.toLowerCase()) return NOT_FOUND;
  }
  const level = installation.permissions[permission];
  const allowed = method === "GET" ? level !== undefined : level === "write";
  return allowed ? undefined : NOT_ACCESSIBLE;
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
