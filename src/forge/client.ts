import { readFileSync } from "node:fs";
import { request as octokitRequest } from "@octokit/request";
import type { Secret } from "../core/secret.js";
import { type AuthProvider, StaticTokenAuth } from "./auth.js";
import type { RateWindow } from "./budget.js";
import { type CacheEntry, type ConditionalCache, cacheKey } from "./cache.js";
import { type Clock, systemClock } from "./clock.js";
import { CLIENT_DEFAULTS } from "./defaults.js";
import { clientSettings } from "./client-settings.js";
import { conditionsFor, entryFor } from "./conditional.js";
import { ForgeError, permissionsNote, serviceMessage, StoppedBeforeSending } from "./errors.js";
import { createHttpFetch, type HttpFetch } from "./http-fetch.js";
import { endpointGroupOf, type GitlabLimitsMode, gitlabLimitsOf } from "./gitlab-limits.js";
import { GitlabWindows } from "./gitlab-windows.js";
import { graphqlResult, type GraphqlResult, graphqlThrottle } from "./graphql-answer.js";
import { predictComplexity, predictCost } from "./graphql-cost.js";
import { FREE_PATH, GRAPHQL, SKEW_MS } from "./limits.js";
import { type Admitted, Pacer, type Ticket } from "./pacer.js";
import {
  type Headers,
  reportedWindow,
  retryAfterMs,
  type Throttle,
  throttleOf,
} from "./rate-headers.js";
import { answered, fromThrown, lostAnswer, type Outcome, timedOut } from "./outcome.js";
import { backoffDelay, mayRetry, type RetryPolicy } from "./retry-policy.js";
import { revealSecrets } from "./reveal.js";
import type {
  ClientEvent,
  ClientStats,
  ForgeClientOptions,
  ForgeResponse,
  Method,
  PageShape,
  Query,
  RateLimitOverview,
  RequestOptions,
} from "./types.js";
import { readListing } from "./listing.js";
import { buildUrl, displayPath, literalUrl } from "./urls.js";
import { writeLaneOf } from "./write-lane.js";
import { KeyedSerializer } from "./write-lock.js";
import { Slots } from "./slots.js";

export type { CacheEntry, ConditionalCache } from "./cache.js";
export { DirectoryCache, MemoryCache } from "./cache.js";
export type { Clock } from "./clock.js";
export { systemClock } from "./clock.js";
export { CLIENT_DEFAULTS } from "./defaults.js";
export {
  ForgeError,
  RateLimitWaitExceeded,
  StoppedBeforeSending,
  type WaitBasis,
} from "./errors.js";
export type { RetryPolicy } from "./retry-policy.js";
export type { GraphqlError, GraphqlResult } from "./graphql-answer.js";
export {
  costOf,
  GITLAB_QUERY_LIMITS,
  predictComplexity,
  predictCost,
  predictQuery,
} from "./graphql-cost.js";

export type {
  ClientEvent,
  ClientStats,
  ForgeClientOptions,
  ForgeResponse,
  Method,
  PageShape,
  Query,
  RateLimitOverview,
  RequestOptions,
  ThrottledAnswer,
  WaitReason,
} from "./types.js";

/**
 * The cache identity of a credential the service will not name: its entries are filed under the
 * target and the URL (the URL holds the target's base).
 */
const UNNAMED = "unnamed";

const silentLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * The one HTTP edge to a code-hosting service. Every request — get, paginate, writes — goes through
 * one private path so that pacing (asked of the Pacer before each attempt), retries, the ETag
 * cache, events and error mapping apply uniformly.
 */
export class ForgeClient {
  readonly #kind: "repository" | "planning";
  readonly #gitlabLimits: GitlabLimitsMode | undefined;
  readonly #share: number;
  readonly #accept: string;
  readonly #base: URL;
  readonly #auth: AuthProvider;
  readonly #maxWaitMs: number;
  readonly #maxPages: number;
  readonly #retries: RetryPolicy;
  readonly #refusedIsFinal: boolean;
  readonly #timeoutMs: number;
  readonly #cache: ConditionalCache | undefined;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #onEvent: (event: ClientEvent) => void;
  readonly #signal: AbortSignal | undefined;
  readonly #octokit: typeof octokitRequest;
  readonly #slots: Slots;
  readonly #fetch: HttpFetch;
  readonly #pacer: Pacer;
  readonly #writeKeys = new KeyedSerializer();
  readonly #stats: ClientStats = {
    requests: 0,
    retries: 0,
    notModified: 0,
    waitsMs: 0,
    graphqlQueries: 0,
    graphqlPoints: 0,
    graphqlComplexity: 0,
    endpoints: {},
    endpointGroups: {},
    noValidator: 0,
  };
  #identityOnce: Promise<string | undefined> | undefined;

  constructor(options: ForgeClientOptions) {
    const settings = clientSettings(options);
    const { github, share, concurrency } = settings;
    this.#share = share;
    this.#maxWaitMs = settings.maxWaitMs;
    this.#timeoutMs = settings.timeoutMs;
    this.#maxPages = settings.maxPages;
    this.#kind = options.kind;
    this.#base = settings.base;
    this.#auth = options.auth ?? new StaticTokenAuth(options.token);
    this.#retries = options.retries ?? CLIENT_DEFAULTS.retries;
    this.#refusedIsFinal = options.refusedIsFinal === true;
    this.#cache = options.cache;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#onEvent = options.onEvent ?? (() => {});
    this.#signal = options.signal;
    this.#slots = new Slots(concurrency);
    this.#fetch = createHttpFetch(concurrency, settings.maxResponseBytes, settings.idleTimeoutMs);
    // GitLab's limits are requests per window, GitHub's secondary points are not among them.
    this.#gitlabLimits = github ? undefined : gitlabLimitsOf(this.#base.href, options.gitlabLimits);
    this.#pacer = new Pacer({
      clock: this.#clock,
      signal: this.#signal,
      maxWaitMs: this.#maxWaitMs,
      writeIntervalMs: settings.writeIntervalMs,
      lane: writeLaneOf(this.#clock, this.#base.origin, this.#auth.writer),
      pointsPerMinute: github ? settings.pointsPerMinute : null,
      gitlab: this.#gitlabLimits === "gitlab.com" ? new GitlabWindows(share, SKEW_MS) : undefined,
      contentLimits: settings.contentLimits,
      cpuTimeLimitMs: settings.cpuTimeLimitMs,
      share,
      margin: options.rateMargin,
      onWait: (wait, now) => {
        this.#stats.waitsMs += wait.until - now;
        this.#onEvent({ type: "wait", ...wait });
      },
    });
    this.#accept =
      options.kind === "repository" ? "application/vnd.github+json" : "application/json";
    this.#octokit = octokitRequest.defaults({
      baseUrl: this.#base.href.replace(/\/+$/, ""),
      headers: {
        accept: this.#accept,
        "user-agent": options.userAgent ?? `forgeplan/${packageVersion()}`,
        ...(options.kind === "repository" ? { "x-github-api-version": "2022-11-28" } : {}),
      },
      request: {
        fetch: this.#fetch,
        log: silentLog,
        // A success body is read by readAnswer, which tells JSON from anything else.
        parseSuccessResponseBody: false,
      },
    });
  }

  /** Throws ForgeError on any answer but a usable 2xx or a 304 served from the cache. */
  async request<T>(
    method: Method,
    path: string,
    options: RequestOptions = {},
  ): Promise<ForgeResponse<T>> {
    const url = buildUrl(this.#base.href, path, options.query);
    return this.#writeKeys.run(options.writeKey, () =>
      this.#exchange<T>(method, url, options.body, true, options.creates === true),
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

  /**
   * Every item of a list, 100 per page, following its next-page links to the end (./listing.ts).
   * With `uncached`, no page is kept in the cache or answered from it.
   */
  async paginate<T>(
    path: string,
    query: Query = {},
    { itemsUnder, uncached = false }: PageShape = {},
  ): Promise<T[]> {
    const perPage = query.per_page ?? 100;
    return readListing<T>(
      buildUrl(this.#base.href, path, { ...query, per_page: perPage }),
      (url) => this.#exchange<unknown>("GET", url, undefined, !uncached),
      {
        base: this.#base,
        perPage: Number(perPage),
        maxPages: this.#maxPages,
        pageNumbers: this.#kind === "planning",
        ...(itemsUnder !== undefined ? { itemsUnder } : {}),
      },
    );
  }

  /**
   * A GraphQL query, `POST /graphql` (GitHub Enterprise Server: `/api/graphql` beside `/api/v3`),
   * with the REST requests' credential, pacing and retries: it draws its predicted cost from the
   * `graphql` budget and 1 point from the endpoint's secondary budget, and waits out a RATE_LIMITED
   * answer (a 200) as a REST request waits out a 403. Partial data with per-field errors is an
   * answer; a 502 or 504 (a query GitHub could not finish in time) is not retried but thrown, for
   * the caller to ask less at once, as is any answer that is not a GraphQL answer.
   */
  async graphql<T>(query: string, variables: Record<string, unknown>): Promise<GraphqlResult<T>> {
    if (this.#kind === "planning") return this.#gitlabGraphql<T>(query, variables);
    const cost = predictCost(query, variables);
    const ticket = this.#pacer.graphqlTicket(cost);
    const url = new URL(graphqlPath(this.#base), this.#base.origin);
    const body = { query, variables };
    const response = await this.#exchange<unknown>("POST", url, body, false, false, ticket);
    const result = graphqlResult<T>(response.data, cost);
    this.#stats.graphqlPoints += result.cost;
    return result;
  }

  /**
   * GitLab's GraphQL API, `POST /api/graphql` beside `/api/v4` (doc/api/graphql/index.md). GitLab
   * has no GraphQL budget of points: a query is one request of the user's API limit, refused when
   * its complexity passes 250. Its stats count the query (`graphqlQueries`) and the complexity
   * GitLab scores it (`graphqlComplexity`, as base_field.rb computes it: ./graphql-cost.ts), never
   * GitHub's points. The pacer counts it in GitLab.com's 2,000 API requests a minute.
   */
  async #gitlabGraphql<T>(
    query: string,
    variables: Record<string, unknown>,
  ): Promise<GraphqlResult<T>> {
    const complexity = predictComplexity(query, variables);
    const ticket = this.#pacer.graphqlTicket(1);
    const root = this.#base.pathname.replace(/\/+$/, "");
    const url = new URL(`${root}/api/graphql`, this.#base.origin);
    const response = await this.#exchange<unknown>(
      "POST",
      url,
      { query, variables },
      false,
      false,
      ticket,
    );
    const result = graphqlResult<T>(response.data, complexity);
    this.#stats.graphqlComplexity += complexity;
    return { ...result, cost: complexity };
  }

  /** GET /rate_limit: costs nothing, and refreshes the budget of every category. */
  async rateLimitStatus(): Promise<RateLimitOverview> {
    const overview = await this.get<unknown>(FREE_PATH);
    const resources = isObject(overview) ? overview.resources : undefined;
    if (!isObject(resources)) {
      throw new ForgeError({
        method: "GET",
        path: FREE_PATH,
        status: 200,
        detail: 'a body that has no "resources" object',
        unusableAnswer: true,
      });
    }
    for (const [category, window] of Object.entries(resources)) {
      if (isRateWindow(window)) this.#pacer.observe(category, window);
    }
    return overview as RateLimitOverview;
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
    return this.#pacer.snapshot();
  }

  /**
   * What this client may still spend of a category before the window resets (its share, less the
   * reserve it keeps), the window's limit and reset (epoch seconds); undefined until reported.
   */
  headroom(category: string): { usable: number; limit: number; reset: number } | undefined {
    return this.#pacer.headroom(category);
  }

  /** For a GitLab target, whether it is held to GitLab.com's limits; undefined for GitHub. */
  get gitlabLimits(): GitlabLimitsMode | undefined {
    return this.#gitlabLimits;
  }

  /** The fraction of the credential's limits this client may spend (a shard's share). */
  get shareOfBudget(): number {
    return this.#share;
  }

  /** The longest any request may be held for rate limits (`--max-wait`). */
  get maxWaitMs(): number {
    return this.#maxWaitMs;
  }

  /** The client's clock, for waits a caller makes between its requests (src/engine/apply.ts). */
  get clock(): Clock {
    return this.#clock;
  }

  stats(): ClientStats {
    return {
      ...this.#stats,
      endpoints: { ...this.#stats.endpoints },
      endpointGroups: { ...this.#stats.endpointGroups },
    };
  }

  /** How errors name the credential, when it is more than a token: "installation 42 of App 1 on acme". */
  get credential(): string | undefined {
    return this.#auth.description;
  }

  /**
   * The single path every request takes: pacing, attempts, retries, cache and error mapping. A
   * write holds the write lane through all its attempts, so no other write comes between them.
   */
  async #exchange<T>(
    method: Method,
    url: URL,
    body?: unknown,
    cacheable = true,
    creates = false,
    ticket: Ticket = this.#pacer.ticket(method, displayPath(url, this.#base), creates),
  ): Promise<ForgeResponse<T>> {
    const progress = { sent: false };
    try {
      if (!ticket.mutating) return await this.#attempts<T>(ticket, url, body, cacheable, progress);
      const turn = this.#pacer.writeTurn();
      const release = turn instanceof Promise ? await turn : turn;
      try {
        return await this.#attempts<T>(ticket, url, body, cacheable, progress);
      } finally {
        release();
      }
    } catch (error) {
      // Cancelled while it waited (its turn, spacing, budget, a credential): it never left.
      if (this.#signal?.aborted && !progress.sent) {
        throw new StoppedBeforeSending(method, ticket.path, error);
      }
      throw error;
    }
  }

  /** Attempts a request until an answer ends it: retries, throttling pauses and a renewed credential. */
  async #attempts<T>(
    ticket: Ticket,
    url: URL,
    body: unknown,
    cacheable: boolean,
    progress: { sent: boolean },
  ): Promise<ForgeResponse<T>> {
    const { method, path } = ticket;
    const identity =
      method === "GET" && this.#cache !== undefined && !ticket.free && cacheable
        ? await this.#identity()
        : undefined;
    const key = identity !== undefined ? cacheKey(method, url.href, identity) : undefined;
    const tokenBoundOnly = identity === UNNAMED;
    let attempts = 0;
    let retries = 0;
    let throttles = 0;
    // This DELETE was repeated after an attempt that reached the service: that one may have deleted.
    let retriedDelete = false;
    // An attempt of this write was sent and its answer lost: it may have been carried out.
    let answerLost = false;
    // A 401 is answered with a fresh credential once; a second 401 is the answer.
    let renewed = false;
    for (;;) {
      // Outside the concurrency slot, as the lane is: a write waiting here never holds up reads.
      const spacing = this.#pacer.writeSpacingMs(ticket);
      if (spacing > 0) await this.#clock.sleep(spacing, this.#signal);
      const stored = key !== undefined ? this.#cache?.get(key) : undefined;
      const cached = tokenBoundOnly && stored?.scheme !== "github" ? undefined : stored;
      const { outcome, sent } = await this.#slots.run((release) =>
        this.#attempt(ticket, url, body, cached, progress, release),
      );
      attempts++;
      const settled = this.#settle<T>(
        ticket,
        outcome,
        key,
        cached,
        sent,
        retriedDelete,
        tokenBoundOnly,
      );
      if (settled !== undefined) return settled;
      answerLost ||= ticket.mutating && lostAnswer(outcome);
      const tried = { attempts, answerLost };
      if (outcome.kind === "refused") {
        throw this.#failure(ticket, tried, outcome.status, outcome.detail, {
          unusableAnswer: outcome.unusableAnswer,
        });
      }
      let retryAfter: number | undefined;
      let status = 0;
      let detail: string;
      if (outcome.kind === "response") {
        status = outcome.status;
        detail = serviceMessage(status, outcome.data);
        // A 401 is given before the request is carried out, so even a write may be sent again.
        if (status === 401 && !renewed && (await this.#auth.renew(sent))) {
          renewed = true;
          this.#onEvent({ type: "reauthenticated", method, path });
          continue;
        }
        const step = this.#afterAnswer(ticket, outcome, detail, attempts, throttles);
        if ("ends" in step) throw this.#failure(ticket, tried, status, detail, { note: step.ends });
        if ("throttle" in step) {
          throttles++;
          this.#pacer.holdAfter(ticket, step.throttle, status, throttles);
          continue;
        }
        retryAfter = step.retryAfter;
      } else {
        detail = outcome.failure.description;
        const retryAs = ticket.graphql ? "GET" : method;
        const final =
          !mayRetry(retryAs, { transport: outcome.failure }) ||
          (outcome.failure.refused && this.#refusedIsFinal);
        if (final) throw this.#failure(ticket, tried, status, detail);
      }
      const delayMs = this.#retryDelay(retries, attempts, retryAfter);
      if (typeof delayMs === "string") {
        throw this.#failure(ticket, tried, status, detail, { note: delayMs });
      }
      const reason = status === 0 ? detail : `${status} ${detail}`;
      retries++;
      retriedDelete ||=
        method === "DELETE" && (outcome.kind === "response" || !outcome.failure.refused);
      this.#stats.retries++;
      this.#onEvent({ type: "retry", method, path, attempt: retries, delayMs, reason });
      await this.#clock.sleep(delayMs, this.#signal);
    }
  }

  /**
   * What an answer that settles nothing asks for: a pause (the service throttled it; `throttles`
   * answers were throttled before), the end of the request (with the note its error carries), or
   * another attempt, no sooner than the answer's Retry-After.
   */
  #afterAnswer(
    ticket: Ticket,
    outcome: Extract<Outcome, { kind: "response" }>,
    detail: string,
    attempts: number,
    throttles: number,
  ): { throttle: Throttle } | { ends: string | undefined } | { retryAfter: number | undefined } {
    const { status, headers, data } = outcome;
    const now = this.#clock.now();
    const throttle =
      throttleOf(status, headers, detail, now, SKEW_MS) ??
      (ticket.graphql && status === 200 ? graphqlThrottle(data, headers, now, SKEW_MS) : undefined);
    if (throttle !== undefined) {
      if (throttles < this.#retries.max) return { throttle };
      return { ends: `gave up after ${attempts} attempts, ${throttles + 1} of them throttled` };
    }
    if (
      !mayRetry(ticket.graphql ? "GET" : ticket.method, { status }) ||
      unfinished(ticket, status)
    ) {
      const needs =
        status === 403 ? permissionsNote(headers["x-accepted-github-permissions"]) : undefined;
      const after = attempts > 1 ? `; after ${attempts} attempts` : "";
      return { ends: needs === undefined ? undefined : `${needs}${after}` };
    }
    return { retryAfter: retryAfterMs(headers, now) };
  }

  /**
   * How long to wait before the next attempt, after `retries` retries; or, as text, why there is
   * none (the retries are spent, or the service asks for a wait beyond the maximum).
   */
  #retryDelay(retries: number, attempts: number, retryAfter: number | undefined): number | string {
    if (retries >= this.#retries.max) return `gave up after ${attempts} attempts`;
    const delayMs = Math.max(backoffDelay(retries, this.#retries, this.#random), retryAfter ?? 0);
    if (delayMs <= this.#maxWaitMs) return delayMs;
    const after = attempts > 1 ? ` after ${attempts} attempts` : "";
    return `stopped${after}: the service asks to retry in ${Math.ceil(delayMs / 1000)} s, beyond the maximum wait`;
  }

  /**
   * The error that ends a request: its last answer (`status` 0 for none), how many attempts it
   * took, and whether a write may have been carried out by one whose answer was lost.
   */
  #failure(
    ticket: Ticket,
    tried: { attempts: number; answerLost: boolean },
    status: number,
    detail: string,
    { note, unusableAnswer = false }: { note?: string | undefined; unusableAnswer?: boolean } = {},
  ): ForgeError {
    const said = note ?? (tried.attempts > 1 ? `after ${tried.attempts} attempts` : undefined);
    const hidden = status === 404 ? this.#hiddenNote(ticket.path) : undefined;
    const notes = [said, hidden].filter((part) => part !== undefined).join("; ");
    return new ForgeError({
      method: ticket.method,
      path: ticket.path,
      status,
      detail,
      attempts: tried.attempts,
      mayHaveBeenApplied: tried.answerLost,
      unusableAnswer,
      ...(notes !== "" ? { note: notes } : {}),
    });
  }

  /**
   * The answers that end a request successfully: a usable 2xx (cached when it has an ETag), 304,
   * 404 on a retried DELETE. A 2xx that cannot be used becomes a refusal.
   */
  #settle<T>(
    ticket: Ticket,
    outcome: Outcome,
    key: string | undefined,
    cached: CacheEntry | undefined,
    sent: Secret | undefined,
    retriedDelete: boolean,
    tokenBoundOnly: boolean,
  ): ForgeResponse<T> | undefined {
    if (outcome.kind !== "response") return undefined;
    const { status, headers, data, raw } = outcome;
    const limited =
      ticket.graphql && graphqlThrottle(data, headers, this.#clock.now(), SKEW_MS) !== undefined;
    if (status >= 200 && status < 300 && !limited) {
      // Counted so a plan can say how much of a run no cache can spare (answers without an ETag).
      if (key !== undefined && headers.etag === undefined) this.#stats.noValidator++;
      if (key !== undefined && headers.etag !== undefined && raw !== undefined) {
        const entry = entryFor(headers, headers.etag, raw, this.#accept, sent);
        if (!tokenBoundOnly || entry.scheme === "github") this.#cache?.set(key, entry);
      }
      return { status, data: data as T, headers, fromCache: false };
    }
    if (status === 304 && cached !== undefined) {
      let body: unknown;
      try {
        body = JSON.parse(cached.body.toString("utf8"));
      } catch {
        // A damaged entry: the 304 cannot be served from it, and the request fails as it is.
        return undefined;
      }
      this.#stats.notModified++;
      const link = headers.link ?? cached.link;
      return {
        status,
        data: body as T,
        headers: { ...headers, ...(link !== undefined ? { link } : {}) },
        fromCache: true,
      };
    }
    if (status === 404 && retriedDelete && ticket.method === "DELETE") {
      // An earlier attempt may have deleted it before its answer was lost: the goal is met.
      return { status: 204, data: undefined as T, headers, fromCache: false };
    }
    return undefined;
  }

  /**
   * One attempt, in one of the client's concurrency slots: wait for pacing and a credential, send,
   * and record what came back, with the credential it was sent with. The slot is released as the
   * answer's last byte is read (`release`, through the fetch), so the next attempt is sent before
   * this answer is parsed; or when the attempt ends, whichever comes first.
   */
  async #attempt(
    ticket: Ticket,
    url: URL,
    body: unknown,
    cached: CacheEntry | undefined,
    progress: { sent: boolean },
    release: () => void,
  ): Promise<{ outcome: Outcome; sent: Secret | undefined }> {
    const admission = this.#pacer.admit(ticket);
    const admitted = admission instanceof Promise ? await admission : admission;
    let sent: Secret | undefined;
    try {
      const header = this.#auth.authorization();
      sent = header instanceof Promise ? await header : header;
    } catch (error) {
      this.#pacer.done(admitted, undefined, false);
      throw error;
    }
    const started = this.#clock.now();
    progress.sent = true;
    this.#pacer.sending(admitted);
    this.#stats.requests++;
    if (ticket.graphql) this.#stats.graphqlQueries++;
    else if (!ticket.free) {
      this.#stats.endpoints[ticket.endpoint] = (this.#stats.endpoints[ticket.endpoint] ?? 0) + 1;
    }
    if (this.#gitlabLimits !== undefined && !ticket.graphql) {
      const group = endpointGroupOf(ticket.method, ticket.path);
      this.#stats.endpointGroups[group] = (this.#stats.endpointGroups[group] ?? 0) + 1;
    }
    // One controller ends the attempt at its timeout or when the client is stopped. Not
    // AbortSignal.any, which on Node 20 took about 30 µs of CPU a request in a plan's profile.
    const attempt = new AbortController();
    const timer = setTimeout(() => attempt.abort(), this.#timeoutMs);
    const stop = () => attempt.abort(this.#signal?.reason);
    this.#signal?.addEventListener("abort", stop, { once: true });
    if (this.#signal?.aborted) stop();
    let outcome: Outcome;
    try {
      const response = await this.#octokit({
        method: ticket.method,
        url: literalUrl(url),
        headers: {
          ...(sent !== undefined ? { authorization: sent.reveal() } : {}),
          ...(cached !== undefined ? conditionsFor(cached, this.#accept, sent) : {}),
        },
        ...(body !== undefined ? { data: revealSecrets(body) } : {}),
        request: {
          signal: attempt.signal,
          fetch: (input: string | URL, init?: RequestInit) => this.#fetch(input, init, release),
        },
      });
      outcome = answered(ticket.method, response.status, response.headers, response.data);
    } catch (error) {
      if (this.#signal?.aborted) {
        this.#pacer.done(admitted, undefined, true);
        throw this.#signal.reason;
      }
      // Not stopped, so aborted only by its timeout.
      outcome = attempt.signal.aborted ? timedOut(this.#timeoutMs) : fromThrown(error);
    } finally {
      clearTimeout(timer);
      this.#signal?.removeEventListener("abort", stop);
    }
    this.#record(admitted, outcome);
    if (outcome.kind !== "transport") {
      this.#onEvent({
        type: "request",
        method: ticket.method,
        path: ticket.path,
        status: outcome.status,
        ms: this.#clock.now() - started,
        fromCache: outcome.status === 304 && cached !== undefined,
      });
    }
    return { outcome, sent };
  }

  #record(admitted: Admitted, outcome: Outcome): void {
    const report =
      outcome.kind === "response"
        ? reportedWindow(outcome.headers as Headers, this.#kind)
        : undefined;
    const spent =
      outcome.kind === "transport"
        ? !outcome.failure.refused
        : !(outcome.kind === "response" && outcome.status === 304);
    this.#pacer.done(admitted, report, spent);
  }

  /** What a 404 may mean when the credential covers only part of the service (an App installation). */
  #hiddenNote(path: string): string | undefined {
    const credential = this.#auth.description;
    if (credential === undefined) return undefined;
    const repository = /^\/repos\/([^/?]+\/[^/?]+)/.exec(path)?.[1];
    return repository !== undefined
      ? `${credential} does not cover ${repository}, or it does not exist`
      : `as ${credential}`;
  }

  /**
   * The login what this client writes is shown as: an App installation's bot, or the account
   * `GET /user` names for a personal or OAuth token. Undefined for a token the service will not
   * name (`GET /user` answers 403 to any installation token, e.g. a workflow's GITHUB_TOKEN).
   */
  async login(): Promise<string | undefined> {
    const known = await this.#auth.login();
    if (known !== undefined) return known;
    let login: unknown;
    try {
      login = (await this.get<{ login?: unknown }>("/user")).login;
    } catch (error) {
      if (error instanceof ForgeError && error.status === 403) return undefined;
      throw error;
    }
    if (typeof login !== "string" || login === "") {
      throw new ForgeError({
        method: "GET",
        path: "/user",
        status: 200,
        detail: "a body without the account's login",
        unusableAnswer: true,
      });
    }
    return login;
  }

  /**
   * Who the credential acts as, for cache keys: the App installation, or for a static token the
   * account it belongs to, asked of the service once (`GET /user`), so a new token of the same user
   * (a rotated personal token) finds the entries of the last. A token the service refuses to name
   * (`GET /user` answers 403 to every installation token: a workflow's GITHUB_TOKEN, one minted by
   * actions/create-github-app-token) files its entries under the URL alone (UNNAMED): its validator
   * is computed for each request over the stored body, and the service answers 304 only where what
   * it would send this token is that body, whichever token stored it. Without a name and with
   * nothing but that check, only entries whose ETags are GitHub's are kept for it. Any other failure
   * leaves the run without a cache.
   */
  #identity(): Promise<string | undefined> {
    this.#identityOnce ??= (async () => {
      const known = await this.#auth.identity();
      if (known !== undefined) return known;
      const path = this.#kind === "repository" ? "/user" : "/api/v4/user";
      try {
        const url = buildUrl(this.#base.href, path, undefined);
        const me = (await this.#exchange<unknown>("GET", url, undefined, false)).data;
        const name = isObject(me)
          ? this.#kind === "repository"
            ? me.login
            : me.username
          : undefined;
        if (typeof name === "string" && name !== "") return `user:${name.toLowerCase()}`;
      } catch (error) {
        if (!(error instanceof ForgeError)) throw error;
        if (error.status === 403) return UNNAMED;
      }
      return undefined;
    })();
    return this.#identityOnce;
  }
}

/**
 * A GraphQL query's 502 or 504: GitHub could not finish it in time ("Rate limits and query limits
 * for the GraphQL API", Timeouts). Sent again it would time out again; the caller asks less at once.
 */
function unfinished(ticket: Ticket, status: number): boolean {
  return ticket.graphql && (status === 502 || status === 504);
}

/**
 * Where GraphQL is served: `/graphql` beside GitHub.com's REST root, `/api/graphql` beside GitHub
 * Enterprise Server's `/api/v3` ("Forming calls with GraphQL": "The GraphQL endpoint is …
 * http(s)://HOSTNAME/api/graphql" for GHES).
 */
function graphqlPath(base: URL): string {
  const root = base.pathname.replace(/\/+$/, "");
  return root.endsWith("/api/v3")
    ? `${root.slice(0, -"/v3".length)}/graphql`
    : `${root}${GRAPHQL.path}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRateWindow(value: unknown): value is RateWindow {
  return (
    isObject(value) &&
    ["limit", "remaining", "reset", "used"].every(
      (k) => typeof value[k] === "number" && Number.isFinite(value[k]) && (value[k] as number) >= 0,
    )
  );
}

let version: string | undefined;

/** forgeplan's version, read once: a run builds a client per target and per reader. */
function packageVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version: string;
    }
  ).version;
  return version;
}
