import type { Category, RateStatus } from "./rate-limits.js";
import type { Account, App, World } from "./world.js";

/**
 * The request context handlers receive and the replies they return. Handlers are synchronous and
 * pure over the world: a handler either returns a reply after changing the world, or throws an
 * HttpError before changing anything, so a rejected request leaves no trace.
 */

export type Family = "github" | "gitlab";

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export class HttpError extends Error {
  constructor(readonly reply: Reply) {
    super(`HTTP ${reply.status}`);
  }
}

export interface RequestContext {
  method: string;
  /** The absolute request URL, on the sandbox's own address. */
  url: URL;
  base: string;
  params: Record<string, string>;
  query: URLSearchParams;
  caller: Account | null;
  /** The App whose JWT signed the request (only the App endpoints accept one). */
  app: App | null;
  world: World;
  now: () => number;
  /** `GET /rate_limit`'s body for the caller's budget. */
  rateOverview(): Record<string, unknown>;
  /** The caller's budget of one category, for a route that meters itself (`Route.metered`). */
  budget(category: Category): { take(points: number): boolean; status(): RateStatus };
  /**
   * The parsed JSON body; throws a 400 reply when it is not a JSON object, and GitHub's 422 when the
   * request schema of the route's operation refuses it.
   */
  json(): Record<string, unknown>;
  /**
   * A 422 for rules a schema cannot say, in the body the route's operation answers with: the spec's
   * Validation Error Simple (errors as strings) where the spec defines the operation or the route
   * names none; GitHub's Validation Error (errors as `{resource, code: "custom", message}`, its
   * published 422 schema for the operation) where only GitHub defines it.
   */
  invalid(errors: string[], resource: string): HttpError;
  /**
   * GitHub's Validation Error for rules about named fields, errors as `{resource, code, field}`
   * (and a `message` where GitHub words one): a duplicate label answers
   * `{"resource":"Label","code":"already_exists","field":"name"}`.
   */
  refused(errors: FieldError[]): HttpError;
}

/** One entry of GitHub's Validation Error `errors` that names the field at fault. */
export interface FieldError {
  resource: string;
  code: "already_exists" | "invalid" | "missing_field" | "custom";
  field: string;
  message?: string;
}

export const DOCS = "https://docs.github.com/rest";

export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

export const noContent: Reply = { status: 204 };

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

export function gitlabError(status: number, message: string): HttpError {
  return new HttpError({ status, body: { message } });
}

export const gitlabNotFound = (what = "Not found") => gitlabError(404, `404 ${what}`);
export const gitlabForbidden = () => gitlabError(403, "403 Forbidden");
/** GitLab answers a missing or malformed parameter with `{"error": "…"}`. */
export function gitlabBadParameter(message: string): HttpError {
  return new HttpError({ status: 400, body: { error: message } });
}

export function unauthenticated(family: Family, badCredentials: boolean): Reply {
  if (family === "gitlab") return { status: 401, body: { message: "401 Unauthorized" } };
  return {
    status: 401,
    body: {
      message: badCredentials ? "Bad credentials" : "Requires authentication",
      documentation_url: DOCS,
    },
  };
}

export function requireCaller(ctx: RequestContext, family: Family = "github"): Account {
  if (ctx.caller === null) throw new HttpError(unauthenticated(family, false));
  return ctx.caller;
}

/** Parses a path id that must be a positive integer; anything else is treated as not found. */
export function idParam(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}
