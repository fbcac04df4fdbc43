import { createHash } from "node:crypto";

/**
 * The ETag GitHub would send for a body answered to a request with these headers: a SHA-256 over
 * the values of `Accept`, `Authorization` and `Cookie` that were sent and that the answer varies by
 * (its `Vary`; all three when it names none), each followed by ":", then the uncompressed body.
 * Observed and documented by bored-engineer/github-conditional-http-transport (README, "Reverse
 * Engineering the GitHub ETag algorithm"; hash.go); GitHub support confirmed that ETags are
 * specific to the token (eclipse-csi/otterdog#201). Only GitHub's own answer to a request that
 * carries it decides anything: a validator that does not match is a full read, never stale data.
 */
const HASHED = ["accept", "authorization", "cookie"] as const;

export type RequestHeaders = Partial<Record<(typeof HASHED)[number], string>>;

export function githubValidator(
  headers: RequestHeaders,
  body: Uint8Array,
  vary: readonly string[] | undefined,
  weak: boolean,
): string {
  const hash = createHash("sha256");
  for (const name of HASHED) {
    const value = headers[name];
    if (value !== undefined && (vary === undefined || vary.includes(name))) {
      hash.update(`${value}:`);
    }
  }
  const tag = `"${hash.update(body).digest("hex")}"`;
  return weak ? `W/${tag}` : tag;
}

/** The header names of a `Vary` value, lower-cased; undefined when there is none. */
export function varyOf(header: string | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  return header
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
}

/** Whether two entity tags are the same under the weak comparison (RFC 9110 §8.8.3.2). */
export function sameTag(a: string, b: string): boolean {
  return a.replace(/^W\//, "") === b.replace(/^W\//, "");
}
