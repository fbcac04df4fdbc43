import { HttpError, type RequestContext as CoreContext, type Reply } from "../core/http-support.js";
import type { RateStatus } from "../core/rate-limits.js";
import type { Route as CoreRoute } from "../core/router.js";
import { offsetPage } from "./pagination.js";
import type { GitlabWorld, User } from "./world/records.js";

export { HttpError, idParam, isoTime, noContent, ok, type Reply } from "../core/http-support.js";

/** Who a GitLab request comes from: a user's token, nobody, or a token GitLab refuses. */
export type GitlabPrincipal =
  | { kind: "anonymous"; caller: null }
  | { kind: "user"; caller: User; rateKey: string }
  | { kind: "refused"; caller: null; refused: string };

export interface GitlabTypes {
  world: GitlabWorld;
  caller: User;
  principal: GitlabPrincipal;
}

export type RequestContext = CoreContext<GitlabTypes>;
export type Route = CoreRoute<GitlabTypes>;

export function gitlabError(status: number, message: string): HttpError {
  return new HttpError({ status, body: { message } });
}

export const gitlabNotFound = (what = "Not found") => gitlabError(404, `404 ${what}`);
export const gitlabForbidden = () => gitlabError(403, "403 Forbidden");
/** GitLab answers a missing or malformed parameter with `{"error": "…"}`. */
export function gitlabBadParameter(message: string): HttpError {
  return new HttpError({ status: 400, body: { error: message } });
}

const UNAUTHORIZED: Reply = { status: 401, body: { message: "401 Unauthorized" } };

export function requireCaller(ctx: RequestContext): User {
  if (ctx.caller === null) throw new HttpError(UNAUTHORIZED);
  return ctx.caller;
}

/** GitLab takes parameters from the query string or the body; the body wins. */
export function parameters(ctx: RequestContext): Record<string, unknown> {
  return { ...Object.fromEntries(ctx.query), ...ctx.json() };
}

/** One page of a list by offset, with GitLab's `Link` and x-* headers (pagination.ts). */
export function gitlabPage<T>(ctx: RequestContext, all: readonly T[]) {
  return offsetPage(ctx, all);
}

/** A 200 answer of one page of a list, each item as `shape` renders it. */
export function gitlabPageReply<T>(
  ctx: RequestContext,
  all: readonly T[],
  shape: (item: T) => unknown,
): Reply {
  const page = gitlabPage(ctx, all);
  return { status: 200, body: page.items.map(shape), headers: page.headers };
}

/**
 * Headers of every answer: the rate headers and a request id (`X-Request-Id`, an opaque string).
 * GitLab's are `RateLimit-Limit`, `-Observed`, `-Remaining`, `-Reset` (epoch seconds) and
 * `-ResetTime` (an HTTP date): docs, "User and IP rate limits", "Response headers"
 * (doc/administration/settings/user_and_ip_rate_limits.md), and "GitLab.com rate limits": "All
 * responses, throttled or not, include RateLimit-Limit, RateLimit-Remaining, and related
 * headers". The X-RateLimit-* names are GitHub's, kept for clients that read only those.
 */
export function gitlabHeaders(requestNumber: number, rate: RateStatus): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(rate.limit),
    "X-RateLimit-Remaining": String(rate.remaining),
    "X-RateLimit-Reset": String(rate.reset),
    "X-RateLimit-Used": String(rate.used),
    "X-RateLimit-Resource": "core",
    "X-Request-Id": `SANDBOX-${requestNumber.toString(16).toUpperCase().padStart(6, "0")}`,
    "RateLimit-Limit": String(rate.limit),
    "RateLimit-Remaining": String(rate.remaining),
    "RateLimit-Reset": String(rate.reset),
    "RateLimit-Observed": String(rate.used),
    "RateLimit-ResetTime": new Date(rate.reset * 1000).toUTCString(),
  };
}

/**
 * GitLab answers every limit on /api/v4 with 429 and `Retry-After`, the RateLimit-* headers kept
 * (gitlab-org/gitlab!206603 quotes `429 {"message": "This endpoint has been requested too many
 * times. Try again later."}` with `Retry-After`; gitlab-org/gitlab#199738 shows the headers on a
 * 429). It has no 403 for limits and no "secondary rate limit" wording: those are GitHub's.
 */
function limited(retryAfter: number): Reply {
  return {
    status: 429,
    body: { message: "This endpoint has been requested too many times. Try again later." },
    headers: { "Retry-After": String(retryAfter) },
  };
}

/** GitLab's answers that every route shares (core/family.ts). */
export const gitlabReplies = {
  badJson: (message: string): Reply => ({
    status: 400,
    body: { message: `400 Bad request - ${message}` },
  }),
  tooLarge: (): Reply => ({ status: 413, body: { message: "413 Request Entity Too Large" } }),
  unauthorized: (): Reply => UNAUTHORIZED,
  notFound: (methodMismatch: boolean): Reply =>
    methodMismatch
      ? { status: 405, body: { message: "405 Method Not Allowed" } }
      : { status: 404, body: { message: "404 Not Found" } },
  secondaryLimited: limited,
  primaryLimited: (_principal: GitlabPrincipal, limit: { reset: number; now: number }): Reply =>
    limited(Math.max(1, limit.reset - Math.floor(limit.now / 1000))),
  internalError: (): Reply => ({ status: 500, body: { message: "Internal sandbox error" } }),
};
