import { readFileSync } from "node:fs";
import { request as octokitRequest } from "@octokit/request";
import pLimit, { type LimitFunction } from "p-limit";
import type { Secret } from "../core/secret.js";
import { RateBudget, type RateWindow } from "./budget.js";
import { type CacheEntry, type ConditionalCache, cacheKey, sha256 } from "./cache.js";
import { type Clock, systemClock } from "./clock.js";
import { ForgeError, RateLimitWaitExceeded, serviceMessage } from "./errors.js";
import { endpointKey } from "./endpoint.js";
import { createHttpFetch } from "./http-fetch.js";
import { type Headers, reportedWindow, retryAfterMs, throttleOf } from "./rate-headers.js";
import {
  backoffDelay,
  mayRetry,
  type RetryPolicy,
  type TransportFailure,
  transportFailure,
} from "./retry-policy.js";
import { PointWindow } from "./points.js";
import { revealSecrets } from "./reveal.js";
import type {
  ClientEvent,
  ClientStats,
  ForgeClientOptions,
  ForgeResponse,
  Method,
  Query,
  RateLimitOverview,
  RequestOptions,
  WaitReason,
} from "./types.js";
import { buildUrl, displayPath, literalUrl, nextLink } from "./urls.js";
import { KeyedSerializer } from "./write-lock.js";

export type { CacheEntry, ConditionalCache } from "./cache.js";
export { DirectoryCache, MemoryCache } from "./cache.js";
export type { Clock } from "./clock.js";
export { systemClock } from "./clock.js";
export { ForgeError, RateLimitWaitExceeded } from "./errors.js";
export type { RetryPolicy } from "./retry-policy.js";

export type {
  ClientEvent,
  ClientStats,
  ForgeClientOptions,
  ForgeResponse,
  Method,
  Query,
  RateLimitOverview,
  RequestOptions,
  WaitReason,
} from "./types.js";

type Outcome =
  | { kind: "response"; status: number; headers: Record<string, string>; data: unknown }
  | { kind: "transport"; failure: TransportFailure };

/** Resets are reported in whole seconds and clocks differ: wait this much past a reported reset. */
const SKEW_MS = 1000;
/** A throttling answer with no hint how long to wait: GitHub and GitLab both ask for a minute. */
const THROTTLE_BACKOFF_MS = 60_000;
const MUTATING = new Set<string>(["POST", "PUT", "PATCH", "DELETE"]);
/** GitHub's secondary limit: points per minute per endpoint, 5 for a mutating request and 1 for a read. */
const WRITE_POINTS = 5;
const READ_POINTS = 1;
const RATE_LIMIT_PATH = "/rate_limit";
const silentLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * The one HTTP edge to a code-hosting service. Every request — get, paginate, writes — goes through
 * one private path so that pacing by the rate-limit budget, write spacing, retries, the ETag cache,
 * events and error mapping apply uniformly.
 */
export class ForgeClient {
  readonly #kind: "repository" | "planning";
  readonly #base: URL;
  readonly #token: Secret | undefined;
  readonly #writeIntervalMs: number;
  readonly #maxWaitMs: number;
  readonly #retries: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #cache: ConditionalCache | undefined;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #onEvent: (event: ClientEvent) => void;
  readonly #signal: AbortSignal | undefined;
  readonly #octokit: typeof octokitRequest;
  readonly #limit: LimitFunction;
  readonly #budget: RateBudget;
  readonly #points: PointWindow;
  readonly #writeKeys = new KeyedSerializer();
  readonly #announced = new Map<string, number>();
  readonly #stats: ClientStats = { requests: 0, retries: 0, notModified: 0, waitsMs: 0 };
  #tokenIdentity: string | undefined;
  #nextWriteTurn = Number.NEGATIVE_INFINITY;
  #nextWriteAt = Number.NEGATIVE_INFINITY;
  #pausedUntil = Number.NEGATIVE_INFINITY;

  constructor(options: ForgeClientOptions) {
    const concurrency = options.concurrency ?? 8;
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 100) {
      throw new Error(`concurrency must be an integer from 1 to 100, got ${concurrency}`);
    }
    const share = options.shareOfBudget ?? 1;
    if (!(share > 0 && share <= 1)) {
      throw new Error(`share of the rate budget must be in (0, 1], got ${share}`);
    }
    this.#writeIntervalMs = nonNegative("write interval", options.writeIntervalMs ?? 1000);
    this.#maxWaitMs = nonNegative("maximum wait", options.maxWaitMs ?? 15 * 60_000);
    this.#timeoutMs = nonNegative("timeout", options.timeoutMs ?? 30_000);
    if (this.#timeoutMs === 0) throw new Error("timeout must be more than 0 milliseconds");
    this.#kind = options.kind;
    this.#base = new URL(options.baseUrl);
    if (this.#base.username !== "" || this.#base.password !== "") {
      throw new Error("the base URL must not carry credentials; pass the token separately");
    }
    this.#token = options.token;
    this.#retries = options.retries ?? { max: 5, baseMs: 500, capMs: 30_000 };
    this.#cache = options.cache;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#onEvent = options.onEvent ?? (() => {});
    this.#signal = options.signal;
    this.#limit = pLimit(concurrency);
    this.#budget = new RateBudget({
      share,
      skewMs: SKEW_MS,
      ...(options.rateMargin !== undefined ? { margin: options.rateMargin } : {}),
    });
    const pointsPerMinute = options.pointsPerMinute ?? 900;
    if (!(Number.isFinite(pointsPerMinute) && pointsPerMinute > 0)) {
      throw new Error(`points per minute must be a positive number, got ${pointsPerMinute}`);
    }
    // The service's minute starts when our request reaches it, a little after we counted it.
    this.#points = new PointWindow(pointsPerMinute, 60_000 + SKEW_MS);
    this.#octokit = octokitRequest.defaults({
      baseUrl: this.#base.href.replace(/\/+$/, ""),
      headers: {
        accept: options.kind === "repository" ? "application/vnd.github+json" : "application/json",
        "user-agent": options.userAgent ?? `forgeplan/${packageVersion()}`,
        ...(options.kind === "repository" ? { "x-github-api-version": "2022-11-28" } : {}),
      },
      request: { fetch: createHttpFetch(concurrency), log: silentLog },
    });
  }

  /** Throws ForgeError on any non-2xx answer other than a 304 served from the cache. */
  async request<T>(
    method: Method,
    path: string,
    options: RequestOptions = {},
  ): Promise<ForgeResponse<T>> {
    const url = buildUrl(this.#base.href, path, options.query);
    return this.#writeKeys.run(options.writeKey, () =>
      this.#exchange<T>(method, url, options.body),
    );
  }

  async get<T>(path: string, query?: Query): Promise<T> {
    return (await this.request<T>("GET", path, query ? { query } : {})).data;
  }

  /** A 404 is an answer here, with the service's words: "Branch not protected" ≠ "Branch not found". */
  async getOrUndefined<T>(
    path: string,
    query?: Query,
  ): Promise<{ found: true; data: T } | { found: false; status: 404; detail: string }> {
    try {
      return { found: true, data: await this.get<T>(path, query) };
    } catch (error) {
      if (error instanceof ForgeError && error.status === 404) {
        return { found: false, status: 404, detail: error.detail };
      }
      throw error;
    }
  }

  /** Every item of a list, 100 per page, following Link rel="next" on the same origin to the end. */
  async paginate<T>(path: string, query: Query = {}): Promise<T[]> {
    let url: URL | undefined = buildUrl(this.#base.href, path, {
      ...query,
      per_page: query.per_page ?? 100,
    });
    const seen = new Set<string>();
    const items: T[] = [];
    while (url !== undefined) {
      const shown = displayPath(url, this.#base);
      if (seen.has(url.href)) {
        throw new ForgeError({
          method: "GET",
          path: shown,
          status: 0,
          detail: "the next-page link leads back to a page already read",
        });
      }
      seen.add(url.href);
      const page: ForgeResponse<unknown> = await this.#exchange<unknown>("GET", url);
      if (!Array.isArray(page.data)) {
        throw new ForgeError({
          method: "GET",
          path: shown,
          status: page.status,
          detail: "expected a list in the response",
        });
      }
      items.push(...(page.data as T[]));
      const next = nextLink(page.headers.link, url);
      if (next !== undefined && next.origin !== this.#base.origin) {
        throw new ForgeError({
          method: "GET",
          path: shown,
          status: 0,
          detail: `refused to follow a next-page link to another origin (${next.origin})`,
        });
      }
      url = next;
    }
    return items;
  }

  /** GET /rate_limit: costs nothing, and refreshes the budget of every category. */
  async rateLimitStatus(): Promise<RateLimitOverview> {
    const overview = await this.get<RateLimitOverview>(RATE_LIMIT_PATH);
    for (const [category, window] of Object.entries(overview.resources ?? {})) {
      if (isRateWindow(window)) this.#budget.observe(category, window);
    }
    return overview;
  }

  /** Reads the budget before the first real request; a service without /rate_limit is fine. */
  async prime(): Promise<void> {
    if (this.#kind !== "repository") return;
    try {
      await this.rateLimitStatus();
    } catch (error) {
      if (!(error instanceof ForgeError && error.status === 404)) throw error;
    }
  }

  budget(): Record<string, RateWindow> {
    return this.#budget.snapshot();
  }

  stats(): ClientStats {
    return { ...this.#stats };
  }

  /** The single path every request takes: pacing, attempts, retries, cache and error mapping. */
  async #exchange<T>(method: Method, url: URL, body?: unknown): Promise<ForgeResponse<T>> {
    const path = displayPath(url, this.#base);
    const relative = path.split("?")[0] ?? path;
    const free = method === "GET" && relative === RATE_LIMIT_PATH;
    const category = categoryOf(relative);
    const endpoint = endpointKey(relative);
    const key =
      method === "GET" && this.#cache !== undefined && !free
        ? cacheKey(method, url.href, this.#identity())
        : undefined;
    let retries = 0;
    let throttles = 0;
    let ambiguous = false;
    for (;;) {
      if (MUTATING.has(method)) {
        const turn = this.#takeWriteTurn();
        if (turn > 0) await this.#clock.sleep(turn, this.#signal);
      }
      const cached = key !== undefined ? this.#cache?.get(key) : undefined;
      const outcome = await this.#limit(() =>
        this.#attempt(method, url, path, { category, endpoint, free }, body, cached?.etag),
      );
      const settled = this.#settle<T>(outcome, key, cached, method === "DELETE" && ambiguous);
      if (settled !== undefined) return settled;
      let retryAfter: number | undefined;
      let status = 0;
      let detail: string;
      if (outcome.kind === "response") {
        const { headers, data } = outcome;
        status = outcome.status;
        detail = serviceMessage(status, data);
        const now = this.#clock.now();
        const throttle = throttleOf(status, headers, detail, now, SKEW_MS);
        if (throttle !== undefined && throttles < this.#retries.max) {
          const until = throttle.until ?? now + THROTTLE_BACKOFF_MS * 2 ** throttles;
          throttles++;
          this.#announce(category, until, throttle.reason, now);
          this.#pausedUntil = Math.max(this.#pausedUntil, until);
          continue;
        }
        if (!mayRetry(method, { status })) throw new ForgeError({ method, path, status, detail });
        retryAfter = retryAfterMs(headers, now);
      } else {
        detail = outcome.failure.description;
        if (!mayRetry(method, { transport: outcome.failure })) {
          throw new ForgeError({ method, path, status, detail });
        }
      }
      if (retries >= this.#retries.max) {
        const note = `gave up after ${retries + 1} attempts`;
        throw new ForgeError({ method, path, status, detail, note });
      }
      const delayMs = Math.max(backoffDelay(retries, this.#retries, this.#random), retryAfter ?? 0);
      if (delayMs > this.#maxWaitMs) {
        const note = `the service asks to retry in ${Math.ceil(delayMs / 1000)} s, beyond the maximum wait`;
        throw new ForgeError({ method, path, status, detail, note });
      }
      const reason = status === 0 ? detail : `${status} ${detail}`;
      retries++;
      ambiguous = ambiguous || outcome.kind === "response" || !outcome.failure.refused;
      this.#stats.retries++;
      this.#onEvent({ type: "retry", method, path, attempt: retries, delayMs, reason });
      await this.#clock.sleep(delayMs, this.#signal);
    }
  }

  /** The answers that end a request successfully: 2xx (cached when it has an ETag), 304, 404 on a retried DELETE. */
  #settle<T>(
    outcome: Outcome,
    key: string | undefined,
    cached: CacheEntry | undefined,
    retriedDelete: boolean,
  ): ForgeResponse<T> | undefined {
    if (outcome.kind !== "response") return undefined;
    const { status, headers, data } = outcome;
    if (status >= 200 && status < 300) {
      if (key !== undefined && headers.etag !== undefined) {
        this.#cache?.set(key, {
          etag: headers.etag,
          body: data,
          ...(headers.link !== undefined ? { link: headers.link } : {}),
        });
      }
      return { status, data: data as T, headers, fromCache: false };
    }
    if (status === 304 && cached !== undefined) {
      this.#stats.notModified++;
      const link = headers.link ?? cached.link;
      return {
        status,
        data: cached.body as T,
        headers: { ...headers, ...(link !== undefined ? { link } : {}) },
        fromCache: true,
      };
    }
    if (status === 404 && retriedDelete) {
      // An earlier attempt may have deleted it before its answer was lost: the goal is met.
      return { status: 204, data: undefined as T, headers, fromCache: false };
    }
    return undefined;
  }

  /** One attempt, inside a concurrency slot: wait for pacing, send, and record what came back. */
  async #attempt(
    method: Method,
    url: URL,
    path: string,
    pacing: Pacing,
    body: unknown,
    etag: string | undefined,
  ): Promise<Outcome> {
    const { category, free } = pacing;
    await this.#admit(method, pacing);
    const started = this.#clock.now();
    this.#stats.requests++;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.#timeoutMs);
    const signal =
      this.#signal !== undefined ? AbortSignal.any([timeout.signal, this.#signal]) : timeout.signal;
    let outcome: Outcome;
    try {
      const response = await this.#octokit({
        method,
        url: literalUrl(url),
        headers: this.#headers(etag),
        ...(body !== undefined ? { data: revealSecrets(body) } : {}),
        request: { signal },
      });
      outcome = {
        kind: "response",
        status: response.status,
        headers: plainHeaders(response.headers),
        data: response.data === "" ? undefined : response.data,
      };
    } catch (error) {
      if (this.#signal?.aborted) throw this.#signal.reason;
      outcome = timeout.signal.aborted
        ? {
            kind: "transport",
            failure: {
              description: `timed out after ${this.#timeoutMs} ms`,
              transient: true,
              refused: false,
            },
          }
        : fromThrown(error);
    } finally {
      clearTimeout(timer);
      if (!free) this.#budget.release(category);
    }
    this.#record(outcome, category, free);
    if (outcome.kind === "response") {
      this.#onEvent({
        type: "request",
        method,
        path,
        status: outcome.status,
        ms: this.#clock.now() - started,
        fromCache: outcome.status === 304 && etag !== undefined,
      });
    }
    return outcome;
  }

  /**
   * Takes the next turn in the write spacing and returns how long until it comes. The caller waits
   * outside any concurrency slot, so writes queued behind the interval never hold up reads;
   * `#admit` still checks the spacing when the write is sent, in case its slot came late.
   */
  #takeWriteTurn(): number {
    const now = this.#clock.now();
    const turn = Math.max(now, this.#nextWriteTurn);
    this.#nextWriteTurn = turn + this.#writeIntervalMs;
    return turn - now;
  }

  /**
   * Waits until a pause, the write spacing, the rate budget and the endpoint's points all allow this
   * request to start.
   */
  async #admit(method: Method, { category, endpoint, free }: Pacing): Promise<void> {
    const mutating = MUTATING.has(method);
    for (;;) {
      const now = this.#clock.now();
      let until: number;
      if (now < this.#pausedUntil) {
        until = this.#pausedUntil;
      } else if (mutating && now < this.#nextWriteAt) {
        until = this.#nextWriteAt;
      } else {
        const admission = free ? { go: true as const } : this.#budget.admit(category, now);
        if (admission.go) {
          const pointsWait = free
            ? 0
            : this.#points.admit(endpoint, mutating ? WRITE_POINTS : READ_POINTS, now);
          if (pointsWait === 0) {
            if (mutating) this.#nextWriteAt = now + this.#writeIntervalMs;
            return;
          }
          this.#budget.release(category);
          this.#holdForPoints(endpoint, now + pointsWait, now);
          await this.#clock.sleep(pointsWait, this.#signal);
          continue;
        }
        if (admission.until - now > this.#maxWaitMs) {
          throw new RateLimitWaitExceeded(
            category,
            admission.until,
            admission.until - now,
            this.#maxWaitMs,
          );
        }
        if (admission.reason === "rate-limit-reset") {
          this.#announce(category, admission.until, "rate-limit-reset", now);
        }
        until = admission.until;
      }
      await this.#clock.sleep(until - now, this.#signal);
    }
  }

  /** Tells the caller about a wait (once per category, reason and end), or refuses a stall too long. */
  #announce(category: string, until: number, reason: WaitReason, now: number): void {
    if (until - now > this.#maxWaitMs) {
      throw new RateLimitWaitExceeded(category, until, until - now, this.#maxWaitMs);
    }
    const key = `${category} ${reason}`;
    if (this.#announced.get(key) === until) return;
    this.#announced.set(key, until);
    this.#stats.waitsMs += until - now;
    this.#onEvent({ type: "wait", until, reason, category });
  }

  /**
   * Announces a wait for an endpoint's points, but not one inside a wait already announced nor one
   * shorter than a second: as the oldest points leave the window, held requests go one after another
   * with waits of a few milliseconds, which would be noise.
   */
  #holdForPoints(endpoint: string, until: number, now: number): void {
    if (until - now > this.#maxWaitMs) {
      throw new RateLimitWaitExceeded(endpoint, until, until - now, this.#maxWaitMs);
    }
    const announced = this.#announced.get(`${endpoint} secondary-limit`);
    if (until - now >= SKEW_MS && (announced === undefined || announced < now)) {
      this.#announce(endpoint, until, "secondary-limit", now);
    }
  }

  #record(outcome: Outcome, category: string, free: boolean): void {
    if (outcome.kind === "response") {
      const report = reportedWindow(outcome.headers as Headers, this.#kind);
      if (report !== undefined) {
        this.#budget.observe(report.category ?? category, report.window);
        return;
      }
    }
    const spent = outcome.kind === "response" ? outcome.status !== 304 : !outcome.failure.refused;
    if (!free && spent) this.#budget.assumeSpent(category);
  }

  #headers(etag: string | undefined): Record<string, string> {
    return {
      ...(this.#token !== undefined ? { authorization: `Bearer ${this.#token.reveal()}` } : {}),
      ...(etag !== undefined ? { "if-none-match": etag } : {}),
    };
  }

  /** Cache entries belong to one credential; the key holds a hash of it, never the token. */
  #identity(): string {
    this.#tokenIdentity ??=
      this.#token !== undefined ? sha256(`token:${this.#token.reveal()}`) : "anonymous";
    return this.#tokenIdentity;
  }
}

/** The rate-limit category a path draws on before the service says (X-RateLimit-Resource). */
function categoryOf(path: string): string {
  if (path.startsWith("/search/code")) return "code_search";
  if (path.startsWith("/search/")) return "search";
  if (path === "/graphql") return "graphql";
  return "core";
}

/** What decides when a request may start: its rate-limit category and its endpoint's points. */
interface Pacing {
  category: string;
  endpoint: string;
  /** GET /rate_limit draws on neither. */
  free: boolean;
}

function fromThrown(error: unknown): Outcome {
  const http = error as { status?: unknown; response?: { headers?: unknown; data?: unknown } };
  if (typeof http.status === "number" && http.response !== undefined) {
    return {
      kind: "response",
      status: http.status,
      headers: plainHeaders(http.response.headers),
      data: http.response.data === "" ? undefined : http.response.data,
    };
  }
  // octokit wraps network failures in a RequestError whose cause is fetch's own error.
  return { kind: "transport", failure: transportFailure(error) };
}

function plainHeaders(headers: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  if (typeof headers !== "object" || headers === null) return result;
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && value !== null) result[name.toLowerCase()] = String(value);
  }
  return result;
}

function isRateWindow(value: unknown): value is RateWindow {
  if (typeof value !== "object" || value === null) return false;
  const w = value as Record<string, unknown>;
  return ["limit", "remaining", "reset", "used"].every((k) => typeof w[k] === "number");
}

function nonNegative(what: string, value: number): number {
  if (!(Number.isFinite(value) && value >= 0)) {
    throw new Error(`${what} must be a non-negative number of milliseconds, got ${value}`);
  }
  return value;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
