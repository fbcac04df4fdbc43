import type { IncomingMessage } from "node:http";
import { bodyEtag } from "../core/conditional.js";
import type { Family } from "../core/family.js";
import { Router } from "../core/router.js";
import {
  type GitlabPrincipal,
  gitlabHeaders,
  gitlabReplies,
  type GitlabTypes,
  type Route,
} from "./http.js";
import { ComLimits } from "./com-limits.js";
import { parameterRefusal, parameterViolations, pathParameters } from "./request-parameters.js";
import type { GitlabOffering, GitlabTier } from "./tiers.js";
import type { GitlabWorld } from "./world/records.js";

/** How the sandbox was started, as GitLab's family needs it. */
export interface GitlabSetup {
  /** The tier the instance runs as (tiers.ts). */
  tier: GitlabTier;
  /** Whether GitLab.com's per-endpoint limits are enforced (com-limits.ts). */
  comLimits: boolean;
  /** Whether the instance answers as GitLab.com or as a self-managed instance (tiers.ts). */
  offering: GitlabOffering;
  /** How long a new member may not yet be named in a protection (world/joined.ts); 0: none. */
  memberDelayMs: number;
  now: () => number;
}

/** A request's token: `Authorization` (`Bearer …`, `token …` or bare), else `PRIVATE-TOKEN`. */
function tokenOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(header);
    return match ? match[1] : header;
  }
  const privateToken = req.headers["private-token"];
  return typeof privateToken === "string" ? privateToken : undefined;
}

/**
 * GitLab's family: the planning paths under `/api/v4`. Its credentials are users' tokens; GitLab's
 * ETags depend on the body alone, not the token. With GitLab.com's limits, each request is counted
 * against its endpoint's per-user limit before its route runs; then its parameters are checked
 * against GitLab's published description of the operation (request-parameters.ts).
 */
export function gitlabFamily(
  world: GitlabWorld,
  routes: readonly Route[],
  setup: GitlabSetup,
): Family<GitlabTypes> {
  world.tier = setup.tier;
  world.offering = setup.offering;
  world.memberDelayMs = setup.memberDelayMs;
  world.now = setup.now;
  const limits = setup.comLimits ? new ComLimits(setup.now) : undefined;
  return {
    name: "gitlab",
    owns: (pathname) => pathname.startsWith("/api/"),
    world,
    // GitLab has no points per endpoint: GitLab.com's limits are per endpoint in requests, and
    // 2,000 requests a minute in all (com-limits.ts, checked in `admit`).
    endpointPoints: false,
    router: new Router(routes, 3),
    authenticate: (req): GitlabPrincipal => {
      const token = tokenOf(req);
      if (token === undefined) return { kind: "anonymous", caller: null };
      const user = world.tokens.get(token);
      if (user !== undefined) return { kind: "user", caller: user, rateKey: `token:${token}` };
      return { kind: "refused", caller: null, refused: "Bad credentials" };
    },
    headers: gitlabHeaders,
    etag: (_headers, text) => bodyEtag(text),
    replies: gitlabReplies,
    admit: ({ method, match, principal, url, body }) => {
      // GitLab.com's limits are Rack::Attack's, before the API; Grape checks the parameters next,
      // before the endpoint runs (and so before it looks the project or group up).
      const user = principal.kind === "user" ? `user:${principal.caller.id}` : undefined;
      if (limits !== undefined) {
        const refusal = limits.check(`${method} ${match.route.pattern}`, match.params, user);
        if (refusal !== undefined) return { refusal, rateLimited: true };
      }
      // GitLab.com reports the user's minute of API traffic on every answer.
      const headers = limits !== undefined && user !== undefined ? limits.rateHeaders(user) : {};
      const operation = match.route.operation;
      if (operation === undefined) return { headers };
      let parsed: unknown;
      try {
        parsed = body();
      } catch {
        return { headers }; // the route answers a body that is not JSON as it does today
      }
      const problems = parameterViolations(operation, {
        path: pathParameters(operation, url.pathname),
        query: url.searchParams,
        body: parsed,
      });
      return problems.length === 0
        ? { headers }
        : { refusal: parameterRefusal(problems), invalidRequest: true, headers };
    },
  };
}
