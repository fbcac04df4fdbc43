import type { Throttle } from "./rate-headers.js";

/**
 * What a GraphQL answer says beyond its data: GitHub answers a query over the primary budget with
 * status 200 and a RATE_LIMITED error, `x-ratelimit-remaining: 0` and the reset in its headers
 * ("If you exceed your primary rate limit, the response status will still be 200, but you will
 * receive an error message"), and a secondary limit with 200 or 403 and a message saying so
 * ("Rate limits and query limits for the GraphQL API", "Exceeding the rate limit").
 */

export interface GraphqlError {
  type?: string;
  path?: Array<string | number>;
  message: string;
}

export interface GraphqlResult<T> {
  data: T | null;
  errors: GraphqlError[];
  /** The points the answer's `rateLimit.cost` reports, or the prediction when it has none. */
  cost: number;
}

function errorsOf(body: unknown): GraphqlError[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .filter(
      (error): error is Record<string, unknown> => typeof error === "object" && error !== null,
    )
    .map((error) => ({
      message: typeof error.message === "string" ? error.message : "",
      ...(typeof error.type === "string" ? { type: error.type } : {}),
      ...(Array.isArray(error.path)
        ? {
            path: error.path.filter(
              (step): step is string | number =>
                typeof step === "string" || typeof step === "number",
            ),
          }
        : {}),
    }));
}

const SECONDARY = /secondary rate limit/i;

/** A 200 answer that is a limit, not an answer: how long to wait, as `throttleOf` says for REST. */
export function graphqlThrottle(
  body: unknown,
  headers: Record<string, string | undefined>,
  now: number,
  skewMs: number,
): Throttle | undefined {
  const errors = errorsOf(body);
  if (errors.some((error) => error.type === "RATE_LIMITED")) {
    const reset = Number(headers["x-ratelimit-reset"]);
    return {
      reason: "rate-limit-reset",
      ...(Number.isFinite(reset) && reset > 0
        ? { until: Math.max(now, reset * 1000 + skewMs) }
        : {}),
    };
  }
  if (errors.some((error) => SECONDARY.test(error.message))) return { reason: "secondary-limit" };
  return undefined;
}

/** The data, errors and cost of a usable answer. */
export function graphqlResult<T>(body: unknown, predicted: number): GraphqlResult<T> {
  const record = (body ?? {}) as { data?: unknown };
  const data = record.data ?? null;
  const reported = (data as { rateLimit?: { cost?: unknown } } | null)?.rateLimit?.cost;
  return {
    data: data as T | null,
    errors: errorsOf(body),
    cost: typeof reported === "number" && Number.isFinite(reported) ? reported : predicted,
  };
}
