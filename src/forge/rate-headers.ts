import { STATUS_CODES } from "node:http";
import type { RateWindow } from "./budget.js";

export type Headers = Record<string, string | undefined>;

/**
 * The rate window a response reports. Repository targets send GitHub's `X-RateLimit-*` (with the
 * category in `X-RateLimit-Resource`); planning targets send GitLab's `RateLimit-*` (no category,
 * `Observed` for used), and may send the GitHub names too.
 */
export function reportedWindow(
  headers: Headers,
  kind: "repository" | "planning",
): { category: string | undefined; window: RateWindow } | undefined {
  const prefixes = kind === "planning" ? ["ratelimit-", "x-ratelimit-"] : ["x-ratelimit-"];
  for (const prefix of prefixes) {
    const limit = integer(headers[`${prefix}limit`]);
    const remaining = integer(headers[`${prefix}remaining`]);
    const reset = integer(headers[`${prefix}reset`]);
    if (limit === undefined || remaining === undefined || reset === undefined) continue;
    const used = integer(headers[`${prefix}used`] ?? headers[`${prefix}observed`]);
    return {
      category: headers["x-ratelimit-resource"],
      window: { limit, remaining, reset, used: used ?? Math.max(0, limit - remaining) },
    };
  }
  return undefined;
}

/** `Retry-After` as a delay in ms: delta-seconds or an HTTP date. */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const value = headers["retry-after"]?.trim();
  if (value === undefined || value === "") return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface Throttle {
  reason: "rate-limit-reset" | "retry-after" | "secondary-limit";
  /** When the service says to try again (ms since epoch); absent when it did not say. */
  until?: number;
}

/**
 * GitHub's secondary-limit messages: "You have exceeded a secondary rate limit…" (documented in
 * "Rate limits for the REST API"), and the older "You have triggered an abuse detection mechanism…"
 * that clients still meet and classify as the same limit (go-github's and gh's callers quote it).
 */
const SECONDARY = /secondary rate limit|abuse detection/i;

/**
 * Whether a 403/429 is the service saying "slow down" rather than "no", and how long it asks to
 * wait, in GitHub's order ("Rate limits for the REST API", "Exceeding the rate limit"): Retry-After;
 * else, with `x-ratelimit-remaining: 0`, the reset; else at least a minute (left to the caller, as
 * `until` is absent).
 *
 * A 403 with remaining 0 is a primary limit only when its message is about a limit or says nothing:
 * the request that spends a window's last unit reports remaining 0 on whatever it answers, so a
 * permission refusal ("Resource not accessible by integration") can carry it too, and is a refusal
 * to report, not a limit to wait out. GitHub's primary-limit answer says "API rate limit exceeded
 * for …" (github/docs, "Resources in the REST API", rate limiting). A 429 is always throttling.
 */
export function throttleOf(
  status: number,
  headers: Headers,
  detail: string,
  now: number,
  skewMs: number,
): Throttle | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const after = retryAfterMs(headers, now);
  const secondary = SECONDARY.test(detail);
  if (after !== undefined) {
    return { reason: secondary ? "secondary-limit" : "retry-after", until: now + after };
  }
  const aboutLimits = secondary || status === 429 || /rate limit/i.test(detail);
  const remaining = integer(headers["x-ratelimit-remaining"] ?? headers["ratelimit-remaining"]);
  if (remaining === 0 && (aboutLimits || saysNothing(status, detail))) {
    const reset = integer(headers["x-ratelimit-reset"] ?? headers["ratelimit-reset"]);
    return {
      reason: "rate-limit-reset",
      ...(reset !== undefined ? { until: Math.max(now, reset * 1000 + skewMs) } : {}),
    };
  }
  return aboutLimits ? { reason: "secondary-limit" } : undefined;
}

/** An answer with no message of its own: an empty body, or only the status's reason phrase. */
function saysNothing(status: number, detail: string): boolean {
  return detail === "" || detail === STATUS_CODES[status];
}

function integer(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}
