import type { IncomingMessage, ServerResponse } from "node:http";
import { conditionalReply } from "./conditional.js";
import { authenticate } from "./credentials.js";
import type { FaultInjector } from "./faults.js";
import { DOCS, type Family, HttpError, type Reply, type RequestContext } from "./http-support.js";
import { appJwtRefusal, installationAccess } from "./installation-access.js";
import {
  GRAPHQL_QUERY_POINTS,
  type RateLimiter,
  READ_POINTS,
  type SecondaryLimiter,
  WRITE_POINTS,
} from "./rate-limits.js";
import { byName } from "./id-paths.js";
import {
  fieldRefusal,
  refusedBeforeRoute,
  requestViolations,
  ruleRefusal,
  schemaRefusal,
} from "./request-rules.js";
import type { ResponseTimeLimiter } from "./response-time.js";
import type { Match, Router } from "./router.js";
import { secretDigests } from "./secret-digests.js";
import { countInto, type SandboxStats } from "./stats.js";
import type { Account, App, World } from "./world.js";

/**
 * The request pipeline: count, authenticate, inject faults, wait out latency, apply secondary and
 * primary limits, run the handler, answer conditional requests, and send with the rate headers.
 */

export const MAX_BODY_BYTES = 1024 * 1024;

/** A request as received, for `startSandbox({ onRequest })`. Bodies may hold secrets. */
export interface RecordedRequest {
  method: string;
  /** The request target as sent: path and query. */
  path: string;
  /** GitHub's operation the matched route serves (`PATCH /repos/{owner}/{repo}/hooks/{hook_id}`). */
  operation?: string;
  /** The parsed JSON body; its text when it is not JSON; undefined when empty or over the limit. */
  body: unknown;
}

export interface Pipeline {
  world: World;
  router: Router;
  limiter: RateLimiter;
  secondary: SecondaryLimiter;
  /** GitHub's CPU-time limit, when the sandbox was started with one. */
  responseTime?: ResponseTimeLimiter;
  faults: FaultInjector;
  latencyMs: number;
  now: () => number;
  stats: SandboxStats;
  base: () => string;
  onRequest?: (request: RecordedRequest) => void;
}

type Body = { bytes: Buffer } | { tooLarge: true };

function readBody(req: IncomingMessage): Promise<Body> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    return Promise.resolve({ tooLarge: true });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve({ tooLarge: true });
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve({ bytes: Buffer.concat(chunks) }));
    req.on("error", () => resolve({ tooLarge: true }));
  });
}

function recordedBody(body: Body): unknown {
  if ("tooLarge" in body) return undefined;
  const text = body.bytes.toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function parseJson(bytes: Buffer, family: Family): Record<string, unknown> {
  const text = bytes.toString("utf8");
  if (text.trim() === "") return {};
  const fail = (message: string) =>
    new HttpError({
      status: 400,
      body:
        family === "gitlab"
          ? { message: `400 Bad request - ${message}` }
          : { message, documentation_url: DOCS },
    });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fail("Problems parsing JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw fail("Body should be a JSON object");
  }
  return value as Record<string, unknown>;
}

function decodePath(pathname: string): string[] | undefined {
  try {
    return pathname.split("/").slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/**
 * GitLab answers every limit on /api/v4 with 429 and `Retry-After`, the RateLimit-* headers kept
 * (gitlab-org/gitlab!206603 quotes `429 {"message": "This endpoint has been requested too many
 * times. Try again later."}` with `Retry-After`; gitlab-org/gitlab#199738 shows the headers on a
 * 429). It has no 403 for limits and no "secondary rate limit" wording: those are GitHub's.
 */
function gitlabLimitReply(retryAfter: number): Reply {
  return {
    status: 429,
    body: { message: "This endpoint has been requested too many times. Try again later." },
    headers: { "Retry-After": String(retryAfter) },
  };
}

function secondaryReply(family: Family, retryAfter: number): Reply {
  if (family === "gitlab") return gitlabLimitReply(retryAfter);
  const message =
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.";
  return {
    status: 403,
    body: { message, documentation_url: DOCS },
    headers: { "Retry-After": String(retryAfter) },
  };
}

function notFoundReply(family: Family, methodMismatch: boolean): Reply {
  if (family === "github")
    return { status: 404, body: { message: "Not Found", documentation_url: DOCS } };
  return methodMismatch
    ? { status: 405, body: { message: "405 Method Not Allowed" } }
    : { status: 404, body: { message: "404 Not Found" } };
}

/** A GraphQL answer refused for the primary budget: still a 200, with a RATE_LIMITED error. */
function isRateLimited(body: unknown): boolean {
  const errors = (body as { errors?: Array<{ type?: unknown }> } | undefined)?.errors;
  return Array.isArray(errors) && errors.some((error) => error.type === "RATE_LIMITED");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Headers every answer of a family carries besides the rate headers: a request id (GitHub's
 * `X-GitHub-Request-Id`, GitLab's `X-Request-Id`; opaque strings) and GitHub's
 * `X-GitHub-Media-Type` (as in the answers quoted in tgymnich/fork-sync#7).
 */
function serviceHeaders(family: Family, id: number): Record<string, string> {
  const requestId = `SANDBOX-${id.toString(16).toUpperCase().padStart(6, "0")}`;
  return family === "gitlab"
    ? { "X-Request-Id": requestId }
    : { "X-GitHub-Request-Id": requestId, "X-GitHub-Media-Type": "github.v3; format=json" };
}

export function createRequestHandler(pipeline: Pipeline) {
  const { world, router, limiter, secondary, faults, stats } = pipeline;
  let answered = 0;

  function send(
    res: ServerResponse,
    reply: Reply,
    rateKey: string,
    anonymous: boolean,
    family: Family,
  ): void {
    const rate = limiter.status(rateKey, "core", anonymous);
    const headers: Record<string, string> = {
      "X-RateLimit-Limit": String(rate.limit),
      "X-RateLimit-Remaining": String(rate.remaining),
      "X-RateLimit-Reset": String(rate.reset),
      "X-RateLimit-Used": String(rate.used),
      "X-RateLimit-Resource": "core",
      ...serviceHeaders(family, ++answered),
      ...reply.headers,
    };
    if (family === "gitlab") {
      headers["RateLimit-Limit"] = String(rate.limit);
      headers["RateLimit-Remaining"] = String(rate.remaining);
      headers["RateLimit-Reset"] = String(rate.reset);
      headers["RateLimit-Observed"] = String(rate.used);
    }
    countInto(stats.responses_by_status, String(reply.status));
    if (reply.body === undefined) {
      res.writeHead(reply.status, headers).end();
      return;
    }
    const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
    headers["Content-Type"] = "application/json; charset=utf-8";
    headers["Content-Length"] = String(Buffer.byteLength(text));
    res.writeHead(reply.status, headers).end(text);
  }

  function dispatch(
    req: IncomingMessage,
    method: string,
    url: URL,
    match: Match,
    bytes: Buffer,
    caller: Account | null,
    app: App | null,
    rateKey: string,
  ): Reply {
    const family = match.route.family;
    const ctx: RequestContext = {
      method,
      url,
      base: pipeline.base(),
      params: match.params,
      query: url.searchParams,
      caller,
      app,
      world,
      now: pipeline.now,
      rateOverview: () => limiter.overview(rateKey, caller === null),
      budget: (category) => ({
        take: (points) => limiter.take(rateKey, category, caller === null, points),
        status: () => limiter.status(rateKey, category, caller === null),
      }),
      json: () => {
        const body = parseJson(bytes, family);
        const operation = match.route.operation;
        const violations =
          operation === undefined || !refusedBeforeRoute(operation)
            ? []
            : requestViolations(operation, body);
        if (operation !== undefined && violations.length > 0) {
          stats.invalid_request_bodies++;
          throw new HttpError(schemaRefusal(operation, violations));
        }
        return body;
      },
      invalid: (errors, resource) =>
        new HttpError(ruleRefusal(match.route.operation, errors, resource)),
      refused: (errors) => new HttpError(fieldRefusal(match.route.operation, errors)),
    };
    let reply: Reply;
    try {
      reply = match.route.handler(ctx);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      reply = error.reply;
    }
    if (method !== "GET" || reply.status !== 200) return reply;
    return conditionalReply(req.headers, family, match.route.pattern, reply);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
    const url = new URL(req.url ?? "/", pipeline.base());
    if (url.pathname === "/_sandbox/stats" && method === "GET") {
      res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(stats));
      return;
    }
    if (url.pathname === "/_sandbox/secrets" && method === "GET") {
      res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ secrets: secretDigests(world) }));
      return;
    }
    stats.requests_total++;
    countInto(stats.requests_by_method, method);
    const family: Family = url.pathname.startsWith("/api/") ? "gitlab" : "github";
    const principal = authenticate(req, family, world, pipeline.now());
    const caller =
      principal.kind === "user" || principal.kind === "installation" ? principal.account : null;
    const app = principal.kind === "app" ? principal.app : null;
    const anonymous = !("rateKey" in principal);
    const rateKey =
      "rateKey" in principal ? principal.rateKey : `address:${req.socket.remoteAddress}`;
    const reply = (value: Reply) => send(res, value, rateKey, anonymous, family);

    const segments = decodePath(url.pathname);
    const match = segments
      ? router.match(method, byName(segments, world))
      : { methodMismatch: false };
    const route = "route" in match ? match.route : undefined;
    const record = (body: Body) =>
      pipeline.onRequest?.({
        method: req.method ?? "GET",
        path: req.url ?? "/",
        ...(route?.operation !== undefined ? { operation: route.operation } : {}),
        body: recordedBody(body),
      });

    const fault = faults.next();
    const arrived = pipeline.now();
    const cpuRetryAfter = pipeline.responseTime?.over(rateKey);
    if (cpuRetryAfter !== undefined) {
      stats.rate_limited_responses++;
      stats.secondary_limited_responses++;
      record(await readBody(req));
      reply(secondaryReply(family, cpuRetryAfter));
      return;
    }
    if (!secondary.enter(rateKey)) {
      stats.rate_limited_responses++;
      stats.secondary_limited_responses++;
      record(await readBody(req));
      reply(secondaryReply(family, 1));
      return;
    }
    try {
      const body = await readBody(req);
      record(body);
      if (pipeline.latencyMs > 0) await sleep(pipeline.latencyMs);
      if (fault !== undefined) {
        if (fault === "secondary") {
          stats.rate_limited_responses++;
          stats.secondary_limited_responses++;
          reply(secondaryReply(family, 1));
        } else {
          stats.server_errors_injected++;
          const message = fault === 502 ? "Server Error" : "Service Unavailable";
          reply({ status: fault, body: { message } });
        }
        return;
      }
      if ("tooLarge" in body) {
        res.setHeader("Connection", "close");
        reply({
          status: 413,
          body:
            family === "gitlab"
              ? { message: "413 Request Entity Too Large" }
              : { message: "Request body too large", documentation_url: DOCS },
        });
        return;
      }
      if (principal.kind === "refused") {
        reply(
          family === "gitlab"
            ? { status: 401, body: { message: "401 Unauthorized" } }
            : { status: 401, body: { message: principal.message, documentation_url: DOCS } },
        );
        return;
      }
      if (!route?.free) {
        const graphql = route?.metered === "graphql";
        const endpoint = `${method} ${route?.pattern ?? "unmatched"}`;
        const points = graphql
          ? GRAPHQL_QUERY_POINTS
          : method === "GET"
            ? READ_POINTS
            : WRITE_POINTS;
        const retryAfter = secondary.spend(rateKey, endpoint, points, graphql);
        if (retryAfter !== undefined) {
          stats.rate_limited_responses++;
          stats.secondary_limited_responses++;
          reply(secondaryReply(family, retryAfter));
          return;
        }
        // A metered route charges its own budget (a GraphQL query its cost, once it is known).
        if (!graphql && !limiter.take(rateKey, "core", anonymous)) {
          stats.rate_limited_responses++;
          if (family === "gitlab") {
            const reset = limiter.status(rateKey, "core", anonymous).reset;
            reply(gitlabLimitReply(Math.max(1, reset - Math.floor(pipeline.now() / 1000))));
            return;
          }
          const who =
            principal.kind === "installation"
              ? `installation ID ${principal.installation.id}`
              : caller
                ? `user ID ${caller.id}`
                : String(req.socket.remoteAddress);
          reply({
            status: 403,
            body: { message: `API rate limit exceeded for ${who}.`, documentation_url: DOCS },
          });
          return;
        }
      }
      if (!("route" in match)) {
        reply(notFoundReply(family, match.methodMismatch));
        return;
      }
      const access =
        principal.kind === "installation"
          ? installationAccess(principal.installation, method, match, world)
          : undefined;
      const refusal =
        access !== undefined
          ? access.refusal
          : principal.kind === "app"
            ? appJwtRefusal(match)
            : undefined;
      const handled =
        refusal ?? dispatch(req, method, url, match, body.bytes, caller, app, rateKey);
      const accepted = access?.accepted;
      // GitHub tells fine-grained callers what an operation takes, on every answer.
      const answer =
        accepted === undefined
          ? handled
          : {
              ...handled,
              headers: { ...handled.headers, "X-Accepted-GitHub-Permissions": accepted },
            };
      if (answer.status === 304) {
        stats.not_modified_responses++;
        if (!match.route.free) limiter.refund(rateKey, "core");
      }
      if (method !== "GET" && !match.route.metered && answer.status >= 200 && answer.status < 300) {
        stats.mutations_applied++;
      }
      if (match.route.metered === "graphql") {
        stats.graphql_queries++;
        if (isRateLimited(answer.body)) stats.rate_limited_responses++;
      }
      reply(answer);
    } finally {
      secondary.leave(rateKey);
      pipeline.responseTime?.record(rateKey, arrived);
    }
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch(() => {
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ message: "Internal sandbox error", documentation_url: DOCS }));
      } else res.destroy();
    });
  };
}
