// The vocabulary of the forge client: its options, answers and the events it reports.
import type { RateWindow } from "./budget.js";
import type { ConditionalCache } from "./cache.js";
import type { ContentLimits } from "./content-creation.js";
import type { AuthProvider } from "./auth.js";
import type { Clock } from "./clock.js";
import type { Secret } from "../core/secret.js";
import type { RetryPolicy } from "./retry-policy.js";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type Query = Record<string, string | number | undefined>;

/** How a listing's pages hold their items (`paginate`). */
export interface PageShape {
  /** The key of the list in a page that is an object; absent when each page is the list. */
  itemsUnder?: string;
  /**
   * Its pages are never kept in the cache: they hold values the run's redactor may not know
   * (GitLab's CI/CD variables list every value, also those no configuration names).
   */
  uncached?: boolean;
}

export type ClientEvent =
  | {
      type: "request";
      method: string;
      path: string;
      status: number;
      ms: number;
      fromCache: boolean;
    }
  | {
      type: "retry";
      method: string;
      path: string;
      /** 1 for the first retry. */
      attempt: number;
      delayMs: number;
      reason: string;
    }
  | {
      /** A 401 was answered with a fresh credential (a new installation token): sent again. */
      type: "reauthenticated";
      method: string;
      path: string;
    }
  | {
      type: "wait";
      /** Milliseconds since the epoch. */
      until: number;
      /** rate-limit-reset, retry-after, secondary-limit: requests are held until `until`. */
      reason: WaitReason;
      category: string;
      /**
       * For a secondary-limit wait, the endpoint (route template) whose points ran out: the one
       * thing such a wait is about, whether forgeplan paced it or the service's answer throttled it.
       */
      endpoint?: string;
      /** Set when the wait follows a throttling answer: which request, and who chose how long. */
      after?: ThrottledAnswer;
    };

/**
 * secondary-limit: an endpoint's points (or a throttling answer about a secondary limit); cpu-time
 * and content-creation: GitHub's secondary limits on an account's response time a minute and its
 * content-creating requests, which forgeplan paces to.
 */
export type WaitReason =
  | "rate-limit-reset"
  | "retry-after"
  | "secondary-limit"
  | "cpu-time"
  | "content-creation"
  /** One of GitLab.com's limits (an endpoint group's, or the API's), paced by the client. */
  | "endpoint-limit";

/** A 403/429 that said "slow down", and where the length of the wait it caused came from. */
export interface ThrottledAnswer {
  /** "GET /repos/acme/api/hooks" */
  request: string;
  status: number;
  /**
   * retry-after: the service's Retry-After; reset: its X-RateLimit-Reset; backoff: forgeplan's own
   * (a minute, doubling after each such answer) because the answer said not how long.
   */
  source: "retry-after" | "reset" | "backoff";
  /** How long the wait is, in milliseconds. */
  waitMs: number;
}

/**
 * The protocol a client speaks: `repository` for GitHub's paths (X-RateLimit-* headers, the GitHub
 * media type), `planning` for GitLab's `/api/v4` (RateLimit-* headers).
 */
export type ClientKind = "repository" | "planning";

/** The protocol of a target's family. */
export function clientKindOf(family: "github" | "gitlab"): ClientKind {
  return family === "github" ? "repository" : "planning";
}

export interface ForgeClientOptions {
  baseUrl: string;
  /** planning: GitLab-style target (RateLimit-* headers); both kinds send Authorization: Bearer. */
  kind: ClientKind;
  /** A static token; or `auth` for any other credential (a GitHub App installation). */
  token?: Secret;
  auth?: AuthProvider;
  /** Requests in flight at once, 1..100; default 8. */
  concurrency?: number;
  /** Spacing between the starts of mutating requests; default 1000. */
  writeIntervalMs?: number;
  /**
   * Longest a request may be held for a rate limit — in total, over every window and pause it waits
   * through — before failing with RateLimitWaitExceeded; default 15 min.
   */
  maxWaitMs?: number;
  /** Requests kept in reserve per category; default max(10, 2% of the limit), at most half of it. */
  rateMargin?: number;
  /**
   * Secondary-limit points each endpoint (route template, see endpoint.ts) may take in a sliding
   * minute: a read costs 1, a mutating request 5; requests past it wait. Default 900 (GitHub's REST
   * budget).
   */
  pointsPerMinute?: number;
  /**
   * GitHub's content-creation limit this client paces its POSTs (and PUTs that create) to; default
   * 80 a minute and 500 an hour for a repository target, none for a planning one; null paces none.
   */
  contentLimits?: ContentLimits | null;
  /**
   * The response time a minute the credential's requests may take, GitHub's CPU-time limit
   * estimated as GitHub says; a fifth is kept in reserve, and GraphQL requests take at most 60 s of
   * it. Default 90 000 for a repository target, none (Infinity) for a planning one.
   */
  cpuTimeLimitMs?: number;
  /**
   * Fraction (0..1] of the credential's limits this client may use — the remaining rate budget,
   * the points a minute, content creation, CPU time and the requests in flight (`concurrency`, at
   * least 1) — when other processes (shards of one run) use the rest; default 1.
   */
  shareOfBudget?: number;
  /**
   * A GitLab target's limits: `gitlab.com` paces each of GitLab.com's per-endpoint limits and its
   * 2,000 requests a minute; `none` runs at the configured concurrency. Default: by the base URL's
   * host (gitlab.com has them). Ignored for GitHub.
   */
  gitlabLimits?: "gitlab.com" | "none";
  retries?: RetryPolicy;
  /**
   * A refused connection ends the request at once instead of being retried: a local sandbox that
   * refuses is not running, and backing off for seconds would only delay saying so.
   */
  refusedIsFinal?: boolean;
  /** Per attempt, wall-clock; default 30 000. */
  timeoutMs?: number;
  /**
   * Longest an answer's body may go without a byte once it has started, per attempt: a stalled
   * body fails the attempt (retried as a broken connection is) before the whole timeout. Default
   * 10 000.
   */
  idleTimeoutMs?: number;
  /**
   * Largest response body read, in bytes (after decompression); a longer one is cut off while it
   * streams in and fails its request. Default 16 MiB.
   */
  maxResponseBytes?: number;
  /**
   * Most pages `paginate` reads of one listing; default 1000. A listing whose first page names its
   * last page (Link rel="last") is held to that count (plus one for items added while it is read).
   */
  maxPages?: number;
  cache?: ConditionalCache;
  clock?: Clock;
  /** Jitter source in [0, 1). */
  random?: () => number;
  onEvent?: (event: ClientEvent) => void;
  signal?: AbortSignal;
  userAgent?: string;
}

export interface ForgeResponse<T> {
  status: number;
  data: T;
  headers: Record<string, string>;
  fromCache: boolean;
}

export interface RateLimitOverview {
  resources: Record<string, RateWindow>;
  rate?: RateWindow;
}

export interface RequestOptions {
  /** Secret values anywhere inside are revealed only as the request is sent. */
  body?: unknown;
  query?: Query;
  /** Requests with the same key (e.g. "acme/api") run one after another. */
  writeKey?: string;
  /**
   * This PUT creates what it names (an environment, a collaborator): it counts towards GitHub's
   * content-creation limit, as every POST does.
   */
  creates?: boolean;
}

export interface ClientStats {
  /** Attempts sent. */
  requests: number;
  /** Attempts repeated after a 5xx, a timeout or a broken connection. */
  retries: number;
  /** GETs answered 304 and served from the cache. */
  notModified: number;
  /** Time announced in wait events that hold requests (resets, Retry-After, secondary limits). */
  waitsMs: number;
  /** GraphQL queries sent (attempts; each also counts in `requests`). */
  graphqlQueries: number;
  /** The points GraphQL answers report having cost (`rateLimit.cost`). */
  graphqlPoints: number;
  /** The complexity of the GitLab GraphQL queries sent, as GitLab scores it (graphql-cost.ts). */
  graphqlComplexity: number;
  /** REST attempts per endpoint (route template, as the secondary limit counts them). */
  endpoints: Record<string, number>;
  /**
   * A GitLab target's REST attempts by the endpoint group of GitLab.com's
   * limits they count in ("GET /api/v4/projects/:id", … or "other"); empty for GitHub.
   */
  endpointGroups: Record<string, number>;
  /** Cacheable GETs answered 2xx without an ETag while a cache is on: nothing to send next time. */
  noValidator: number;
}
