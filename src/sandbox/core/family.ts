import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { FamilyTypes, FieldError, Reply } from "./http-support.js";
import type { RateStatus } from "./rate-limits.js";
import type { Match, Router } from "./router.js";

/**
 * One service the sandbox emulates (a path family): its world, its routes, and everything the
 * request pipeline (server.ts) must ask of it — who a credential names, the service's words for
 * the answers every route shares, and the checks it makes before a route runs. The pipeline
 * itself is the same for every family.
 */

/** What the pipeline needs to know of a principal; a family's principal adds its own kinds. */
export interface Principal<C = unknown> {
  /** Who acts: a user, or an account acting for an App; null when nobody (or an App itself). */
  caller: C | null;
  /** The budget its requests draw on; undefined for an anonymous request (its address's). */
  rateKey?: string;
  /** Set when the service refuses the credential: the 401's message. */
  refused?: string;
}

/** How the family words a body its published request schema refuses, and the route's own 422s. */
export interface RequestRules {
  /** Whether the pipeline checks the operation's body before its route runs. */
  checksBeforeRoute(operation: string): boolean;
  /** The service's words for what is wrong with a body; [] when nothing is. */
  violations(operation: string, body: unknown): string[];
  /** The 422 for a body the operation's schema refuses. */
  schemaRefusal(operation: string, lines: string[]): Reply;
  /** `RequestContext.invalid`. */
  ruleRefusal(operation: string | undefined, errors: string[], resource: string): Reply;
  /** `RequestContext.refused`. */
  fieldRefusal(operation: string | undefined, errors: FieldError[]): Reply;
}

/** A request as a family's checks before the route see it. */
export interface Admission<F extends FamilyTypes> {
  method: string;
  match: Match<F>;
  principal: F["principal"];
  /** The request's URL (its query string holds parameters too, for some services). */
  url: URL;
  /** The parsed body; throws as `RequestContext.json` does for a body that is not JSON. */
  body: () => Record<string, unknown>;
}

export interface Family<F extends FamilyTypes> {
  /** Named in messages only. */
  name: string;
  /** Whether a request path is this family's (the last family listed takes every other path). */
  owns(pathname: string): boolean;
  world: F["world"];
  /**
   * Whether requests spend points of a minute's budget per endpoint and token (rate-limits.ts's
   * secondary points: reads 1, writes 5, a GraphQL query 1 of the GraphQL endpoint's). A service
   * whose per-endpoint limits are others checks its own in `admit`, and says false.
   */
  endpointPoints: boolean;
  router: Router<F>;
  rules?: RequestRules;
  authenticate(req: IncomingMessage, now: number): F["principal"] & Principal<F["caller"]>;
  /** Headers of every answer: the rate headers and the service's own (a request id …). */
  headers(requestNumber: number, rate: RateStatus): Record<string, string>;
  /** The validators of a 200 answer to a GET: its ETag, and the `Vary` that goes with it. */
  etag(headers: IncomingHttpHeaders, text: string, list: boolean): string;
  vary?: string;
  replies: {
    /** A body that is not JSON, or not an object. */
    badJson(message: string): Reply;
    tooLarge(): Reply;
    unauthorized(message: string): Reply;
    notFound(methodMismatch: boolean): Reply;
    /** A request over a secondary limit (concurrency, points, CPU time, or an injected one). */
    secondaryLimited(retryAfterSeconds: number): Reply;
    /** A request over the primary budget, which resets at `reset` (epoch seconds). */
    primaryLimited(
      principal: F["principal"],
      limit: { reset: number; now: number; address: string },
    ): Reply;
    internalError(): Reply;
  };
  /** The path by names an id path stands for (`/repositories/{id}/…`). */
  resolvePath?(segments: string[]): string[];
  /** The path a list's `Link` header names for a request's path. */
  linkPath?(pathname: string): string;
  /** The redirect a request to a former name gets, before its route is looked for. */
  redirect?(method: string, url: URL, segments: readonly string[], base: string): Reply | undefined;
  /**
   * Checks before the route runs: a refusal instead of its answer (what a token may not do, a
   * write to a read-only record, parameters the service's published description refuses), and
   * headers every answer to the request carries. `invalidRequest` marks a refusal of the last
   * kind: it is counted as `invalid_request_bodies`; `rateLimited` marks a refusal for a limit
   * (GitLab.com's per-endpoint limits), counted as `rate_limited_responses`.
   */
  admit?(request: Admission<F>): {
    refusal?: Reply;
    headers?: Record<string, string>;
    invalidRequest?: boolean;
    rateLimited?: boolean;
  };
  /** `GET /_sandbox/<name>` endpoints of the family (not the service's, and not counted). */
  inspect?: Record<string, () => unknown>;
}
