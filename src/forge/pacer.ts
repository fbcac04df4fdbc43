import { RateBudget, type RateWindow } from "./budget.js";
import type { Clock } from "./clock.js";
import { ForgeError, RateLimitWaitExceeded } from "./errors.js";
import { endpointKey } from "./endpoint.js";
import {
  categoryOf,
  FREE_PATH,
  GRAPHQL,
  MUTATING,
  POINTS,
  SKEW_MS,
  THROTTLE_BACKOFF_MS,
} from "./limits.js";
import { PointWindow } from "./points.js";
import type { Throttle } from "./rate-headers.js";
import type { ThrottledAnswer, WaitReason } from "./types.js";
import type { WriteLane } from "./write-lane.js";

/** A wait that holds requests, as the client reports it. */
export interface Wait {
  until: number;
  reason: WaitReason;
  category: string;
  /** The endpoint a secondary-limit wait is about. */
  endpoint?: string;
  after?: ThrottledAnswer;
}

export interface PacerOptions {
  clock: Clock;
  signal: AbortSignal | undefined;
  /** Longest a request may be held, in total, before RateLimitWaitExceeded. */
  maxWaitMs: number;
  /** Least time from the start of one write (an attempt) to the start of the next. */
  writeIntervalMs: number;
  /** The lane this client's writes share with every client writing as the same credential. */
  lane: WriteLane;
  pointsPerMinute: number;
  /** Fraction (0..1] of each category's remaining budget this client may spend. */
  share: number;
  margin: number | undefined;
  /** Told of each wait that holds requests, once per category, reason and end. */
  onWait: (wait: Wait, now: number) => void;
}

/** What pacing needs to know of one request. */
export interface Ticket {
  method: string;
  /** Path and query relative to the base URL, as shown to the user. */
  path: string;
  /** The primary rate-limit category it draws on. */
  category: string;
  /** Its route template, the unit the secondary limit counts points in. */
  endpoint: string;
  /** GET /rate_limit draws on neither budget. */
  free: boolean;
  mutating: boolean;
  /** What it draws from its category: 1 for a REST request, a GraphQL query's predicted points. */
  cost: number;
  /** A GraphQL query: paced as a read, on the GraphQL endpoint's own secondary points. */
  graphql: boolean;
}

/**
 * Decides when each request may start: the primary budget per category (RateBudget), the secondary
 * points per endpoint (PointWindow), writes one at a time and spaced (WriteLane), and pauses after
 * throttling answers. The client asks it before every attempt and tells it what each answer reported.
 */
export class Pacer {
  readonly #options: PacerOptions;
  readonly #budget: RateBudget;
  readonly #points: PointWindow;
  readonly #graphqlPoints: PointWindow;
  readonly #announced = new Map<string, number>();
  #pausedUntil = Number.NEGATIVE_INFINITY;
  /**
   * A throttling answer asked for a wait longer than the maximum: until it ends, every request is
   * refused as that one was, unsent, rather than drawing the same answer (a stop finds writes
   * queued behind the refused one).
   */
  #refused: RateLimitWaitExceeded | undefined;

  constructor(options: PacerOptions) {
    this.#options = options;
    this.#budget = new RateBudget({
      share: options.share,
      skewMs: SKEW_MS,
      ...(options.margin !== undefined ? { margin: options.margin } : {}),
    });
    // The service's minute starts when our request reaches it, a little after we counted it.
    this.#points = new PointWindow(options.pointsPerMinute, POINTS.windowMs + SKEW_MS);
    this.#graphqlPoints = new PointWindow(GRAPHQL.pointsPerMinute, POINTS.windowMs + SKEW_MS);
  }

  ticket(method: string, path: string): Ticket {
    const relative = path.split("?")[0] ?? path;
    return {
      method,
      path,
      category: categoryOf(relative),
      endpoint: endpointKey(relative),
      free: method === "GET" && relative === FREE_PATH,
      mutating: MUTATING.has(method),
      cost: 1,
      graphql: false,
    };
  }

  /** A GraphQL query predicted to cost `cost` points. */
  graphqlTicket(cost: number): Ticket {
    return {
      method: "POST",
      path: GRAPHQL.path,
      category: GRAPHQL.category,
      endpoint: GRAPHQL.path,
      free: false,
      mutating: false,
      cost,
      graphql: true,
    };
  }

  /**
   * The write lane's release, or a promise of it while another write holds the lane: the client
   * holds it from a write's first attempt until its last answer. The caller waits outside any
   * concurrency slot, so writes queued behind another never hold up reads. Time in the queue is
   * not a rate-limit hold and does not count towards the maximum wait: a thousand writes a second
   * apart queue for many minutes.
   */
  writeTurn(): (() => void) | Promise<() => void> {
    return this.#options.lane.acquire(this.#options.signal);
  }

  /**
   * How long a write, holding the lane, still waits for the interval since the lane's last attempt
   * started, whoever sent it: each attempt of a write, a retry included, is a new start (as in
   * octokit/plugin-throttling, where every retry passes the `write` group again). 0 for a read.
   */
  writeSpacingMs(ticket: Ticket): number {
    if (!ticket.mutating) return 0;
    const { clock, lane, writeIntervalMs } = this.#options;
    return Math.max(0, lane.lastStart + writeIntervalMs - clock.now());
  }

  /** An attempt of a write is sent now: the next write's spacing counts from here. */
  sending(ticket: Ticket): void {
    if (ticket.mutating) this.#options.lane.lastStart = this.#options.clock.now();
  }

  /**
   * Waits until a pause, the rate budget and the endpoint's points all allow the request to start
   * (a write has its lane and its spacing already). Every wait here counts towards the maximum: a
   * budget that never admits (a window that resets only to be empty again) ends in
   * RateLimitWaitExceeded, not in waiting on.
   */
  async admit(ticket: Ticket): Promise<void> {
    const { clock, signal, maxWaitMs } = this.#options;
    const started = clock.now();
    for (;;) {
      const now = clock.now();
      if (this.#refused !== undefined && now < this.#refused.resetAt) throw this.#refused;
      let until: number;
      if (now < this.#pausedUntil) {
        until = this.#pausedUntil;
      } else {
        const admission = ticket.free
          ? { go: true as const }
          : this.#budget.admit(ticket.category, now, ticket.cost);
        if (admission.go) {
          const [window, points] = ticket.graphql
            ? [this.#graphqlPoints, GRAPHQL.queryPoints]
            : [this.#points, ticket.mutating ? POINTS.write : POINTS.read];
          const pointsWait = ticket.free ? 0 : window.admit(ticket.endpoint, points, now);
          if (pointsWait === 0) return;
          this.#budget.release(ticket.category, ticket.cost);
          until = now + pointsWait;
          this.#holdForPoints(ticket.endpoint, until, now);
        } else if (admission.reason === "unusable") {
          throw unusableBudget(ticket, admission.limit, this.#options.share);
        } else {
          until = admission.until;
          if (until - now > maxWaitMs) {
            throw new RateLimitWaitExceeded(ticket.category, until, until - now, maxWaitMs);
          }
          if (admission.reason === "rate-limit-reset") {
            this.#announce({ category: ticket.category, until, reason: "rate-limit-reset" }, now);
          }
        }
      }
      if (until - started > maxWaitMs) {
        throw new RateLimitWaitExceeded(ticket.category, until, until - now, maxWaitMs, {
          kind: "total",
          waitedMs: now - started,
        });
      }
      await clock.sleep(until - now, signal);
    }
  }

  /** Ends an admitted attempt with what its answer reported of the category's window. */
  done(
    ticket: Ticket,
    report: { category: string | undefined; window: RateWindow } | undefined,
    spent: boolean,
  ): void {
    if (ticket.free) return;
    this.#budget.release(ticket.category, ticket.cost);
    if (report !== undefined)
      this.#budget.observe(report.category ?? ticket.category, report.window);
    // The service may have counted a request that brought no report; assume it did.
    else if (spent) this.#budget.assumeSpent(ticket.category, ticket.cost);
  }

  /**
   * After a throttling answer, holds every request until the service's Retry-After or reset, or —
   * when it said not how long — for forgeplan's own back-off: a minute, doubled for each further
   * such answer to this request (`answers` counts them from 1).
   */
  holdAfter(ticket: Ticket, throttle: Throttle, status: number, answers: number): void {
    const now = this.#options.clock.now();
    const source =
      throttle.until === undefined
        ? "backoff"
        : throttle.reason === "rate-limit-reset"
          ? "reset"
          : "retry-after";
    const until = throttle.until ?? now + THROTTLE_BACKOFF_MS * 2 ** (answers - 1);
    const request = `${ticket.method} ${ticket.path}`;
    if (until - now > this.#options.maxWaitMs) {
      this.#refused = new RateLimitWaitExceeded(
        ticket.category,
        until,
        until - now,
        this.#options.maxWaitMs,
        source === "reset"
          ? { kind: "reset" }
          : {
              kind: "answer",
              request,
              endpoint: ticket.endpoint,
              status,
              reason: throttle.reason,
              source,
              answers,
            },
      );
      throw this.#refused;
    }
    const after: ThrottledAnswer = { request, status, source, waitMs: until - now };
    const endpoint = throttle.reason === "secondary-limit" ? { endpoint: ticket.endpoint } : {};
    this.#announce(
      { category: ticket.category, until, reason: throttle.reason, ...endpoint, after },
      now,
    );
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
  }

  /** What GET /rate_limit reported of a category. */
  observe(category: string, window: RateWindow): void {
    this.#budget.observe(category, window);
  }

  snapshot(): Record<string, RateWindow> {
    return this.#budget.snapshot();
  }

  headroom(category: string): { usable: number; limit: number; reset: number } | undefined {
    return this.#budget.headroom(category);
  }

  /**
   * Announces a wait for an endpoint's points, but not one inside a wait already announced nor one
   * shorter than a second: as the oldest points leave the window, held requests go one after another
   * with waits of a few milliseconds, which would be noise.
   */
  #holdForPoints(endpoint: string, until: number, now: number): void {
    if (until - now > this.#options.maxWaitMs) {
      throw new RateLimitWaitExceeded(endpoint, until, until - now, this.#options.maxWaitMs, {
        kind: "points",
      });
    }
    const announced = this.#announced.get(`${endpoint} secondary-limit`);
    if (until - now >= SKEW_MS && (announced === undefined || announced < now)) {
      this.#announce({ category: endpoint, until, reason: "secondary-limit", endpoint }, now);
    }
  }

  /** Tells the client about a wait, once per category, reason and end. */
  #announce(wait: Wait, now: number): void {
    const key = `${wait.category} ${wait.reason}`;
    if (this.#announced.get(key) === wait.until) return;
    this.#announced.set(key, wait.until);
    this.#options.onWait(wait, now);
  }
}

/** No window of this category would ever admit a request: say so instead of waiting for one. */
function unusableBudget(ticket: Ticket, limit: number, share: number): ForgeError {
  const requests = `${limit} request${limit === 1 ? "" : "s"}`;
  const why =
    limit === 0
      ? `the service reports a limit of 0 requests for ${ticket.category}: no request can be sent with this token`
      : `the service reports a limit of ${requests} for ${ticket.category}: this client's share (${share}) ` +
        "of it, less the reserve kept, leaves none to send";
  return new ForgeError({
    method: ticket.method,
    path: ticket.path,
    status: 0,
    detail: `not sent: ${why}`,
  });
}
