import type { Secret } from "../core/secret.js";
import type { CacheEntry } from "./cache.js";
import { githubValidator, type RequestHeaders, sameTag, varyOf } from "./validator.js";

/** The headers a client sends that GitHub's ETag hashes (forgeplan never sends a Cookie). */
function hashedHeaders(accept: string, sent: Secret | undefined): RequestHeaders {
  return { accept, ...(sent !== undefined ? { authorization: sent.reveal() } : {}) };
}

/**
 * The conditional headers for a stored answer: the validator GitHub would compute for this
 * request's own headers (`accept`, the credential `sent`) over the stored body, so an entry
 * outlives the token it was read with, or the stored ETag when the service's ETags are not
 * GitHub's; and If-Modified-Since where the answer had a Last-Modified. A server that follows RFC
 * 9110 §13.1.3 ignores the date when a validator is sent, so a 304 always comes from a validator
 * made for this request.
 */
export function conditionsFor(
  cached: CacheEntry,
  accept: string,
  sent: Secret | undefined,
): Record<string, string> {
  const validator =
    cached.scheme === "github"
      ? githubValidator(
          hashedHeaders(accept, sent),
          cached.body,
          cached.vary,
          cached.etag.startsWith("W/"),
        )
      : cached.etag;
  return {
    "if-none-match": validator,
    ...(cached.lastModified !== undefined ? { "if-modified-since": cached.lastModified } : {}),
  };
}

/**
 * The entry stored for a 2xx answer to a request sent with `accept` and the credential `sent`;
 * whether its ETag is GitHub's is checked against the body.
 */
export function entryFor(
  headers: Record<string, string>,
  etag: string,
  raw: Buffer,
  accept: string,
  sent: Secret | undefined,
): CacheEntry {
  const vary = varyOf(headers.vary);
  const github = sameTag(githubValidator(hashedHeaders(accept, sent), raw, vary, false), etag);
  return {
    etag,
    scheme: github ? "github" : "opaque",
    body: raw,
    ...(vary !== undefined ? { vary } : {}),
    ...(headers.link !== undefined ? { link: headers.link } : {}),
    ...(headers["last-modified"] !== undefined ? { lastModified: headers["last-modified"] } : {}),
  };
}
