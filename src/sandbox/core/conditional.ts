import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { Family, Reply } from "./http-support.js";

/**
 * Conditional GETs as each service answers them.
 *
 * GitHub's ETag is a SHA-256 over the values of the request's `Accept`, `Authorization` and
 * `Cookie` headers that are present, each followed by ":", then the uncompressed body — so an
 * ETag is made for one token, and a validator from another token's answer never matches. This
 * was observed and documented by bored-engineer/github-conditional-http-transport (README,
 * "Reverse Engineering the GitHub ETag algorithm"; hash.go), and GitHub support confirmed that
 * "ETags [are] auth token specific" (eclipse-csi/otterdog#201). Listings answer a weak
 * `W/"…"` (observed per page, github.community "How to correctly use ETag with the paginated
 * responses"); `If-None-Match` compares weakly (RFC 9110 §13.1.2), so `"…"` matches `W/"…"`.
 * Responses say `Vary: Accept, Authorization, Cookie, X-GitHub-OTP`, as GitHub's do.
 *
 * `Last-Modified` is sent for `GET /repos/{owner}/{repo}`, from the repository's `updated_at`
 * (GitHub's "Best practices for using the REST API": most endpoints return an etag header, and
 * many a last-modified header; a repository answers one). Branch protections, hooks and the other
 * listings forgeplan reads answer none in the sandbox: their bodies carry no time to derive one
 * from. `If-Modified-Since` is evaluated only without `If-None-Match` (RFC 9110 §13.1.3), so a
 * date never stands in for a validator made for the token.
 *
 * GitLab's ETags depend on the body alone, not the token: planning paths keep a digest of the body.
 */

const VARY = "Accept, Authorization, Cookie, X-GitHub-OTP";
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

function gitlabEtag(body: string): string {
  return `"${createHash("sha1").update(body).digest("hex")}"`;
}

/** The HTTP-date of `Last-Modified` for the operations that send one (see above). */
export function lastModifiedOf(pattern: string, body: unknown): string | undefined {
  if (pattern !== "/repos/:owner/:repo") return undefined;
  const updated = (body as { updated_at?: unknown } | undefined)?.updated_at;
  return typeof updated === "string" ? new Date(updated).toUTCString() : undefined;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, "");
  return header
    .split(",")
    .map((value) => value.trim().replace(/^W\//, ""))
    .some((value) => value === bare || value === "*");
}

function notModifiedSince(header: string | undefined, lastModified: string): boolean {
  if (header === undefined) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && Date.parse(lastModified) <= since;
}

/**
 * A 200 answer to a GET with its validators, or the 304 it becomes for a request whose
 * validators still hold. `lastModified` is an HTTP-date, for the operations that send one.
 */
export function conditionalReply(
  headers: IncomingHttpHeaders,
  family: Family,
  pattern: string,
  reply: Reply,
): Reply {
  const text = JSON.stringify(reply.body);
  const lastModified = lastModifiedOf(pattern, reply.body);
  const etag =
    family === "github" ? githubEtag(headers, text, Array.isArray(reply.body)) : gitlabEtag(text);
  const validators: Record<string, string> = {
    ETag: etag,
    ...(family === "github" ? { Vary: VARY } : {}),
    ...(lastModified !== undefined ? { "Last-Modified": lastModified } : {}),
  };
  const inm = headers["if-none-match"];
  const unchanged =
    inm !== undefined
      ? matchesEtag(inm, etag)
      : lastModified !== undefined && notModifiedSince(headers["if-modified-since"], lastModified);
  if (unchanged) return { status: 304, headers: { ...reply.headers, ...validators } };
  return { ...reply, body: text, headers: { ...reply.headers, ...validators } };
}
