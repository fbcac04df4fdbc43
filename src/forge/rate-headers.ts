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
 * Whether a 403/429 is the service saying "slow down" rather than "no". Primary limit: remaining 0
 * (wait for the reset). Secondary limit: GitHub's "secondary rate limit" message or a Retry-After.
 * A 429 (or a 403 mentioning a rate limit) with neither is still throttling, with no hint how long.
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
  const secondary = /secondary rate limit/i.test(detail);
  if (secondary) {
    return { reason: "secondary-limit", ...(after !== undefined ? { until: now + after } : {}) };
  }
  if (after !== undefined) return { reason: "retry-after", until: now + after };
  const remaining = integer(headers["x-ratelimit-remaining"] ?? headers["ratelimit-remaining"]);
  if (remaining === 0) {
    const reset = integer(headers["x-ratelimit-reset"] ?? headers["ratelimit-reset"]);
    return {
      reason: "rate-limit-reset",
      ...(reset !== undefined ? { until: Math.max(now, reset * 1000 + skewMs) } : {}),
    };
  }
  if (status === 429 || /rate limit/i.test(detail)) return { reason: "secondary-limit" };
  return undefined;
}

function integer(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}
