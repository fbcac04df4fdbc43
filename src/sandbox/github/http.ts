import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { HttpError, type RequestContext as CoreContext, type Reply } from "../core/http-support.js";
import type { Route as CoreRoute } from "../core/router.js";
import { DOCS } from "./request-rules.js";
import type { RateStatus } from "../core/rate-limits.js";
import type { GithubPrincipal } from "./world/credentials.js";
import type { Account, GithubWorld } from "./world/records.js";

export {
  type FieldError,
  HttpError,
  idParam,
  isoTime,
  noContent,
  ok,
  type Reply,
} from "../core/http-support.js";
export { DOCS } from "./request-rules.js";

/** What GitHub's handlers see: the GitHub world, an account as the caller, GitHub's principals. */
export interface GithubTypes {
  world: GithubWorld;
  caller: Account;
  principal: GithubPrincipal;
}

export type RequestContext = CoreContext<GithubTypes>;
export type Route = CoreRoute<GithubTypes>;

export function githubError(status: number, message: string): HttpError {
  return new HttpError({ status, body: { message, documentation_url: DOCS } });
}

export const notFound = (message = "Not Found") => githubError(404, message);
export const forbidden = (message: string) => githubError(403, message);

/** 404 with the hook-family body `{errors, message, url}`. */
export function hookNotFound(ctx: RequestContext, detail: string): HttpError {
  return new HttpError({
    status: 404,
    body: { message: "Not Found", errors: [detail], url: ctx.url.href },
  });
}

export function unauthenticated(badCredentials: boolean): Reply {
  return {
    status: 401,
    body: {
      message: badCredentials ? "Bad credentials" : "Requires authentication",
      documentation_url: DOCS,
    },
  };
}

export function requireCaller(ctx: RequestContext): Account {
  if (ctx.caller === null) throw new HttpError(unauthenticated(false));
  return ctx.caller;
}

/**
 * GitHub's ETag is a SHA-256 over the values of the request's `Accept`, `Authorization` and
 * `Cookie` headers that are present, each followed by ":", then the uncompressed body — so an
 * ETag is made for one token, and a validator from another token's answer never matches. This
 * was observed and documented by bored-engineer/github-conditional-http-transport (README,
 * "Reverse Engineering the GitHub ETag algorithm"; hash.go), and GitHub support confirmed that
 * "ETags [are] auth token specific" (eclipse-csi/otterdog#201). Listings answer a weak
 * `W/"…"` (observed per page, github.community "How to correctly use ETag with the paginated
 * responses"). Responses say `Vary: Accept, Authorization, Cookie, X-GitHub-OTP`, as GitHub's do.
 *
 * `Last-Modified` is sent for `GET /repos/{owner}/{repo}`, from the repository's `updated_at`
 * (GitHub's "Best practices for using the REST API": most endpoints return an etag header, and
 * many a last-modified header; a repository answers one: `lastModified` of its route). Branch
 * protections, hooks and the other listings forgeplan reads answer none in the sandbox: their
 * bodies carry no time to derive one from.
 */
export const VARY = "Accept, Authorization, Cookie, X-GitHub-OTP";
const HASHED_HEADERS = ["accept", "authorization", "cookie"] as const;

/** GitHub's ETag of `body` answered to a request with these headers. */
export function githubEtag(headers: IncomingHttpHeaders, body: string, weak: boolean): string {
  const hash = createHash("sha256");
  for (const name of HASHED_HEADERS) {
    const value = headers[name];
    if (typeof value === "string") hash.update(`${value}:`);
  }
  const tag = `"${hash.update(body).digest("hex")}"`;
  return weak ? `W/${tag}` : tag;
}

/**
 * Headers of every answer: the rate headers of the core budget, a request id
 * (`X-GitHub-Request-Id`, an opaque string) and `X-GitHub-Media-Type` (as in the answers quoted
 * in tgymnich/fork-sync#7).
 */
export function githubHeaders(requestNumber: number, rate: RateStatus): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(rate.limit),
    "X-RateLimit-Remaining": String(rate.remaining),
    "X-RateLimit-Reset": String(rate.reset),
    "X-RateLimit-Used": String(rate.used),
    "X-RateLimit-Resource": "core",
    "X-GitHub-Request-Id": `SANDBOX-${requestNumber.toString(16).toUpperCase().padStart(6, "0")}`,
    "X-GitHub-Media-Type": "github.v3; format=json",
  };
}

/** GitHub's answers that every route shares (core/family.ts). */
export const githubReplies = {
  badJson: (message: string): Reply => ({
    status: 400,
    body: { message, documentation_url: DOCS },
  }),
  tooLarge: (): Reply => ({
    status: 413,
    body: { message: "Request body too large", documentation_url: DOCS },
  }),
  unauthorized: (message: string): Reply => ({
    status: 401,
    body: { message, documentation_url: DOCS },
  }),
  notFound: (): Reply => ({ status: 404, body: { message: "Not Found", documentation_url: DOCS } }),
  secondaryLimited: (retryAfter: number): Reply => ({
    status: 403,
    body: {
      message:
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      documentation_url: DOCS,
    },
    headers: { "Retry-After": String(retryAfter) },
  }),
  primaryLimited: (principal: GithubPrincipal, limit: { address: string }): Reply => {
    const who =
      principal.kind === "installation"
        ? `installation ID ${principal.installation.id}`
        : principal.caller
          ? `user ID ${principal.caller.id}`
          : limit.address;
    return {
      status: 403,
      body: { message: `API rate limit exceeded for ${who}.`, documentation_url: DOCS },
    };
  },
  internalError: (): Reply => ({
    status: 500,
    body: { message: "Internal sandbox error", documentation_url: DOCS },
  }),
};
