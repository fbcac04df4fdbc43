import type { IncomingMessage, ServerResponse } from "node:http";
import { conditionalReply } from "./conditional.js";
import type { FaultInjector } from "./faults.js";
import type { Family } from "./family.js";
import { type FamilyTypes, HttpError, type Reply, type RequestContext } from "./http-support.js";
import {
  GRAPHQL_QUERY_POINTS,
  type RateLimiter,
  READ_POINTS,
  type SecondaryLimiter,
  WRITE_POINTS,
} from "./rate-limits.js";
import type { ResponseTimeLimiter } from "./response-time.js";
import type { Match } from "./router.js";
import { countInto, type SandboxStats } from "./stats.js";

/**
 * The request pipeline, the same for every family (family.ts): count, authenticate, inject faults,
 * wait out latency, apply secondary and primary limits, let the family check the request, run the
 * handler, answer conditional requests, and send with the family's headers.
 */

export const MAX_BODY_BYTES = 1024 * 1024;

/** A request as received, for `startSandbox({ onRequest })`. Bodies may hold secrets. */
export interface RecordedRequest {
  method: string;
  /** The request target as sent: path and query. */
  path: string;
  /** The operation the matched route serves (`PATCH /repos/{owner}/{repo}/hooks/{hook_id}`). */
  operation?: string;
  /** The parsed JSON body; its text when it is not JSON; undefined when empty or over the limit. */
  body: unknown;
}

/** A family of any service, as the pipeline holds it. */
export type AnyFamily = Family<FamilyTypes>;

export interface Pipeline {
  /** The services, each owning its paths; the last one takes every path the others do not. */
  families: readonly AnyFamily[];
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

function parseJson(bytes: Buffer, family: AnyFamily): Record<string, unknown> {
  const text = bytes.toString("utf8");
  if (text.trim() === "") return {};
  const fail = (message: string) => new HttpError(family.replies.badJson(message));
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

/** A GraphQL answer refused for the primary budget: still a 200, with a RATE_LIMITED error. */
function isRateLimited(body: unknown): boolean {
  const errors = (body as { errors?: Array<{ type?: unknown }> } | undefined)?.errors;
  return Array.isArray(errors) && errors.some((error) => error.type === "RATE_LIMITED");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createRequestHandler(pipeline: Pipeline) {
  const { families, limiter, secondary, faults, stats } = pipeline;
  let answered = 0;
  const inspected = new Map<string, () => unknown>();
  for (const family of families) {
    for (const [name, read] of Object.entries(family.inspect ?? {})) {
      inspected.set(`/_sandbox/${name}`, read);
    }
  }
  const familyOf = (pathname: string): AnyFamily =>
    families.find((family) => family.owns(pathname)) ?? families[families.length - 1]!;

  function send(
    res: ServerResponse,
    reply: Reply,
    rateKey: string,
    anonymous: boolean,
    family: AnyFamily,
  ): void {
    const rate = limiter.status(rateKey, "core", anonymous);
    const headers: Record<string, string> = {
      ...family.headers(++answered, rate),
      ...reply.headers,
    };
    for (const name of reply.without ?? []) delete headers[name];
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
    family: AnyFamily,
    method: string,
    url: URL,
    match: Match<FamilyTypes>,
    bytes: Buffer,
    principal: { caller: unknown },
    rateKey: string,
  ): Reply {
    const { rules } = family;
    const operation = match.route.operation;
    const ctx: RequestContext<FamilyTypes> = {
      method,
      url,
      base: pipeline.base(),
      params: match.params,
      query: url.searchParams,
      caller: principal.caller,
      principal,
      world: family.world,
      now: pipeline.now,
      linkPath: (pathname) => family.linkPath?.(pathname) ?? pathname,
      rateOverview: () => limiter.overview(rateKey, principal.caller === null),
      budget: (category) => ({
        take: (points) => limiter.take(rateKey, category, principal.caller === null, points),
        status: () => limiter.status(rateKey, category, principal.caller === null),
      }),
      json: () => {
        const body = parseJson(bytes, family);
        if (rules === undefined || operation === undefined) return body;
        const violations = rules.checksBeforeRoute(operation)
          ? rules.violations(operation, body)
          : [];
        if (violations.length > 0) {
          stats.invalid_request_bodies++;
          throw new HttpError(rules.schemaRefusal(operation, violations));
        }
        return body;
      },
      invalid: (errors, resource) =>
        new HttpError(
          rules?.ruleRefusal(operation, errors, resource) ?? { status: 422, body: { errors } },
        ),
      refused: (errors) =>
        new HttpError(rules?.fieldRefusal(operation, errors) ?? { status: 422, body: { errors } }),
    };
    let reply: Reply;
    try {
      reply = match.route.handler(ctx);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      reply = error.reply;
    }
    if (method !== "GET" || reply.status !== 200) return reply;
    return conditionalReply(req.headers, family, match.route, reply);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
    const url = new URL(req.url ?? "/", pipeline.base());
    if (url.pathname === "/_sandbox/stats" && method === "GET") {
      res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(stats));
      return;
    }
    const inspect = inspected.get(url.pathname);
    if (inspect !== undefined && method === "GET") {
      res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(inspect()));
      return;
    }
    stats.requests_total++;
    countInto(stats.requests_by_method, method);
    const family = familyOf(url.pathname);
    const principal = family.authenticate(req, pipeline.now());
    const anonymous = principal.rateKey === undefined;
    const rateKey = principal.rateKey ?? `address:${req.socket.remoteAddress}`;
    const reply = (value: Reply) => send(res, value, rateKey, anonymous, family);

    const segments = decodePath(url.pathname);
    const match = segments
      ? family.router.match(method, family.resolvePath?.(segments) ?? segments)
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
      reply(family.replies.secondaryLimited(cpuRetryAfter));
      return;
    }
    if (!secondary.enter(rateKey)) {
      stats.rate_limited_responses++;
      stats.secondary_limited_responses++;
      record(await readBody(req));
      reply(family.replies.secondaryLimited(1));
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
          reply(family.replies.secondaryLimited(1));
        } else {
          stats.server_errors_injected++;
          const message = fault === 502 ? "Server Error" : "Service Unavailable";
          reply({ status: fault, body: { message } });
        }
        return;
      }
      if ("tooLarge" in body) {
        res.setHeader("Connection", "close");
        reply(family.replies.tooLarge());
        return;
      }
      if (principal.refused !== undefined) {
        reply(family.replies.unauthorized(principal.refused));
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
        const retryAfter = family.endpointPoints
          ? secondary.spend(rateKey, endpoint, points, graphql)
          : undefined;
        if (retryAfter !== undefined) {
          stats.rate_limited_responses++;
          stats.secondary_limited_responses++;
          reply(family.replies.secondaryLimited(retryAfter));
          return;
        }
        // A metered route charges its own budget (a GraphQL query its cost, once it is known).
        if (!graphql && !limiter.take(rateKey, "core", anonymous)) {
          stats.rate_limited_responses++;
          reply(
            family.replies.primaryLimited(principal, {
              reset: limiter.status(rateKey, "core", anonymous).reset,
              now: pipeline.now(),
              address: String(req.socket.remoteAddress),
            }),
          );
          return;
        }
      }
      const moved =
        segments === undefined
          ? undefined
          : family.redirect?.(method, url, segments, pipeline.base());
      if (moved !== undefined) {
        reply(moved);
        return;
      }
      if (!("route" in match)) {
        reply(family.replies.notFound(match.methodMismatch));
        return;
      }
      const admitted = family.admit?.({
        method,
        match,
        principal,
        url,
        body: () => parseJson(body.bytes, family),
      });
      if (admitted?.invalidRequest === true) stats.invalid_request_bodies++;
      if (admitted?.rateLimited === true) stats.rate_limited_responses++;
      const handled =
        admitted?.refusal ??
        dispatch(req, family, method, url, match, body.bytes, principal, rateKey);
      const added = admitted?.headers;
      const answer =
        added === undefined ? handled : { ...handled, headers: { ...handled.headers, ...added } };
      if (answer.status === 304) {
        stats.not_modified_responses++;
        if (!match.route.free) limiter.refund(rateKey, "core");
      }
      const query = match.route.metered === "graphql" || match.route.readsOnly === true;
      if (method !== "GET" && !query && answer.status >= 200 && answer.status < 300) {
        stats.mutations_applied++;
      }
      if (query) stats.graphql_queries++;
      if (match.route.metered === "graphql") {
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
        const { status, body } = familyOf(
          new URL(req.url ?? "/", "http://sandbox").pathname,
        ).replies.internalError();
        res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
        res.end(JSON.stringify(body));
      } else res.destroy();
    });
  };
}
