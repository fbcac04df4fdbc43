import type { Family } from "../core/family.js";
import { githubRequestRules } from "./request-rules.js";
import { Router } from "../core/router.js";
import {
  githubEtag,
  githubHeaders,
  githubReplies,
  type GithubTypes,
  type Route,
  VARY,
} from "./http.js";
import { authenticate } from "./world/credentials.js";
import { byId, byName } from "./world/id-paths.js";
import {
  appJwtRefusal,
  installationAccess,
  type PermissionRow,
} from "./world/installation-access.js";
import { archivedRefusal } from "./world/read-only.js";
import type { GithubWorld } from "./world/records.js";
import { renamedRedirect } from "./world/renamed.js";

/**
 * GitHub's family: every path that is not another family's. Its credentials are users' tokens,
 * installation tokens and App JWTs; what an installation's token may call is checked before a
 * route runs, as is a write to an archived repository (world/installation-access.ts,
 * world/read-only.ts).
 */
export function githubFamily(
  world: GithubWorld,
  routes: readonly Route[],
  inspect: Record<string, () => unknown>,
  permissions: ReadonlyMap<string, PermissionRow>,
): Family<GithubTypes> {
  return {
    name: "github",
    // GitHub's secondary limits: "no more than 900 points per minute" for REST endpoints, 2,000
    // for the GraphQL endpoint ("Rate limits for the REST API", "About secondary rate limits").
    endpointPoints: true,
    owns: () => true,
    world,
    router: new Router(routes),
    rules: githubRequestRules,
    authenticate: (req, now) => authenticate(req, world, now),
    headers: githubHeaders,
    etag: githubEtag,
    vary: VARY,
    replies: githubReplies,
    resolvePath: (segments) => byName(segments, world),
    linkPath: (pathname) => byId(pathname, world),
    redirect: (method, url, segments, base) => renamedRedirect(method, url, segments, world, base),
    admit: ({ method, match, principal, body }) => {
      const access =
        principal.kind === "installation"
          ? installationAccess(principal.installation, method, match, world, permissions)
          : undefined;
      const refusal =
        access !== undefined
          ? access.refusal
          : principal.kind === "app"
            ? appJwtRefusal(match)
            : undefined;
      return {
        refusal: refusal ?? archivedRefusal(method, match, body, world, principal.caller),
        ...(access?.accepted !== undefined
          ? { headers: { "X-Accepted-GitHub-Permissions": access.accepted } }
          : {}),
      };
    },
    inspect,
  };
}
