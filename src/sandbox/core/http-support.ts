import type { Category, RateStatus } from "./rate-limits.js";

/**
 * The request context handlers receive and the replies they return. Handlers are synchronous and
 * pure over their family's world: a handler either returns a reply after changing the world, or
 * throws an HttpError before changing anything, so a rejected request leaves no trace.
 */

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Headers of every answer (the family's) that this one goes without, by name: a service that
   * throttles some endpoints outside its usual limiter answers those without its rate headers.
   */
  without?: readonly string[];
}

export class HttpError extends Error {
  constructor(readonly reply: Reply) {
    super(`HTTP ${reply.status}`);
  }
}

/**
 * What a family's handlers see besides the request itself: its world, who calls, and how the
 * family's credentials named them (the principal). Each family names its own types.
 */
export interface FamilyTypes {
  world: unknown;
  caller: unknown;
  principal: unknown;
}

export interface RequestContext<F extends FamilyTypes = FamilyTypes> {
  method: string;
  /** The absolute request URL, on the sandbox's own address. */
  url: URL;
  base: string;
  params: Record<string, string>;
  query: URLSearchParams;
  caller: F["caller"] | null;
  /** How the request's credential authenticated (a family's own union of kinds). */
  principal: F["principal"];
  world: F["world"];
  now: () => number;
  /** The path a list's `Link` header names for this request's path (a family may name ids). */
  linkPath(pathname: string): string;
  /** `GET /rate_limit`'s body for the caller's budget. */
  rateOverview(): Record<string, unknown>;
  /** The caller's budget of one category, for a route that meters itself (`Route.metered`). */
  budget(category: Category): { take(points: number): boolean; status(): RateStatus };
  /**
   * The parsed JSON body; throws a 400 reply when it is not a JSON object, and the family's 422
   * when the request schema of the route's operation refuses it.
   */
  json(): Record<string, unknown>;
  /**
   * A 422 for rules a schema cannot say, in the body the route's operation answers with (the
   * family's request rules word it).
   */
  invalid(errors: string[], resource: string): HttpError;
  /**
   * A Validation Error for rules about named fields, errors as `{resource, code, field}` (and a
   * `message` where the service words one): a duplicate label answers
   * `{"resource":"Label","code":"already_exists","field":"name"}`.
   */
  refused(errors: FieldError[]): HttpError;
}

/** One entry of a Validation Error's `errors` that names the field at fault. */
export interface FieldError {
  resource: string;
  code: "already_exists" | "invalid" | "missing_field" | "custom";
  field: string;
  message?: string;
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

export const noContent: Reply = { status: 204 };

/** Parses a path id that must be a positive integer; anything else is treated as not found. */
export function idParam(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}
