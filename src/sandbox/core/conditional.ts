import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { Family } from "./family.js";
import type { FamilyTypes, Reply } from "./http-support.js";
import type { Route } from "./router.js";

/**
 * Conditional GETs: a 200 answer carries the family's validators (its ETag, the `Vary` that goes
 * with it, and `Last-Modified` where the route sends one), and a request whose validators still
 * hold is answered 304. `If-Modified-Since` is evaluated only without `If-None-Match` (RFC 9110
 * §13.1.3), so a date never stands in for a validator; `If-None-Match` compares weakly (RFC 9110
 * §13.1.2), so `"…"` matches `W/"…"`. How each service makes its ETags is the family's
 * (github/http.ts, gitlab/http.ts).
 */

/** A SHA-1 of the body alone, for services whose ETags do not depend on the token. */
export function bodyEtag(text: string): string {
  return `"${createHash("sha1").update(text).digest("hex")}"`;
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
  family: Pick<Family<FamilyTypes>, "etag" | "vary">,
  route: Pick<Route, "lastModified">,
  reply: Reply,
): Reply {
  const text = JSON.stringify(reply.body);
  const lastModified = route.lastModified?.(reply.body);
  const etag = family.etag(headers, text, Array.isArray(reply.body));
  const validators: Record<string, string> = {
    ETag: etag,
    ...(family.vary !== undefined ? { Vary: family.vary } : {}),
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
