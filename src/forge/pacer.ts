import { RateBudget, type RateWindow } from "./budget.js";
import type { Clock } from "./clock.js";
import { ContentCreationWindow, type ContentLimits } from "./content-creation.js";
import { type CpuLease, ResponseTimeBudget } from "./cpu-time.js";
import { ForgeError, RateLimitWaitExceeded } from "./errors.js";
import { endpointKey } from "./endpoint.js";
import type { GitlabWindows } from "./gitlab-windows.js";
import {
  categoryOf,
  CPU_TIME,
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
  /** GitHub's secondary points per endpoint a minute; null: not paced (a GitLab target). */
  pointsPerMinute: number | null;
  /** GitLab.com's limits, for a GitLab target that has them; undefined: none. */
  gitlab?: GitlabWindows | undefined;
  /** The account's content-creating requests a minute and an hour; null: not paced (a sandbox). */
  contentLimits: ContentLimits | null;
  /**
   * Response time a minute the credential's requests may take (GitHub's CPU-time limit), of which
   * a reserve is kept; Infinity: not paced (a sandbox).
   */
  cpuTimeLimitMs: number;
  /**
   * Fraction (0..1] of the credential's limits this client may spend — each category's remaining
   * budget, the points a minute, content creation and response time — when other processes (shards)
   * spend the rest.
   */
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
  /** Counts towards the content-creation limit: a POST, or a PUT its caller says creates. */
  creates: boolean;
  /** What it draws from its category: 1 for a REST request, a GraphQL query's predicted points. */
  cost: number;
  /** A GraphQL query: paced as a read, on the GraphQL endpoint's own secondary points. */
  graphql: boolean;
}

/** An attempt the pacer let start; the client hands it back as it is sent and when it ends. */
export interface Admitted {
  ticket: Ticket;
  /** Its share of the CPU-time budget, while it is in flight. */
  cpu: CpuLease | undefined;
}

/** A secondary limit that holds a request: which one, and for how long. */
interface Hold {
  limit: "points" | "cpu-time" | "content-creation" | "endpoint-limit";
  waitMs: number;
  /** For a GitLab.com limit: its group ("GET /api/v4/projects/:id", "authenticated API"). */
  group?: string;
}

/**
 * Decides when each request may start: the primary budget per category (RateBudget), GitHub's
 * secondary limits — points per endpoint (PointWindow), content creation (ContentCreationWindow)
 * and CPU time (ResponseTimeBudget) — or, for a GitLab target that has them, GitLab.com's
 * per-endpoint and API limits (GitlabWindows) — writes one at a time and spaced (WriteLane), and
 * pauses after throttling answers. The client asks it before every attempt and tells it what each
 * answer reported.
 */
export class Pacer {
  readonly #options: PacerOptions;
  readonly #budget: RateBudget;
  readonly #points: PointWindow | undefined;
  readonly #graphqlPoints: PointWindow;
  readonly #content: ContentCreationWindow | undefined;
  readonly #cpu: ResponseTimeBudget | undefined;
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
    const { share } = options;
    // The service's minute starts when our request reaches it, a little after we counted it.
    if (options.pointsPerMinute !== null) {
      this.#points = new PointWindow(options.pointsPerMinute * share, POINTS.windowMs + SKEW_MS);
    }
    this.#graphqlPoints = new PointWindow(
      GRAPHQL.pointsPerMinute * share,
      POINTS.windowMs + SKEW_MS,
    );
    if (options.contentLimits !== null) {
      this.#content = new ContentCreationWindow(options.contentLimits, share, SKEW_MS);
    }
    if (Number.isFinite(options.cpuTimeLimitMs)) {
      const usable = (limitMs: number) => limitMs * (1 - CPU_TIME.reserve) * share;
      this.#cpu = new ResponseTimeBudget({
        totalMs: usable(options.cpuTimeLimitMs),
        graphqlMs: usable(Math.min(options.cpuTimeLimitMs, CPU_TIME.graphqlLimitMs)),
        windowMs: CPU_TIME.windowMs + SKEW_MS,
      });
    }
  }

  ticket(method: string, path: string, creates = false): Ticket {
    const relative = path.split("?")[0] ?? path;
    const category = categoryOf(relative);
    return {
      method,
      path,
      category,
      endpoint: endpointKey(relative),
      free: method === "GET" && relative === FREE_PATH,
      mutating: MUTATING.has(method),
      // A GraphQL POST is a query, whatever it asks.
      creates: (method === "POST" && category !== "graphql") || (method === "PUT" && creates),
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
      creates: false,
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

  /**
   * An attempt is sent now: the next write's spacing counts from here, and so does its response
   * time.
   */
  sending(attempt: Admitted): void {
    const now = this.#options.clock.now();
    if (attempt.ticket.mutating) this.#options.lane.lastStart = now;
    if (attempt.cpu !== undefined) this.#cpu?.sent(attempt.cpu, now);
  }

  /**
   * Waits until a pause, the rate budget and the secondary limits (the endpoint's points, content
   * creation, CPU time) all allow the request to start (a write has its lane and its spacing
   * already). Every wait here counts towards the maximum: a budget that never admits (a window
   * that resets only to be empty again) ends in RateLimitWaitExceeded, not in waiting on.
   */
  admit(ticket: Ticket): Admitted | Promise<Admitted> {
    // Admitted without a wait, the request is sent in this same turn (./slots.ts says why).
    const started = this.#options.clock.now();
    const first = this.#admitOrWait(ticket, started, started);
    return "until" in first ? this.#admitAfter(ticket, started, first.until) : first;
  }

  async #admitAfter(ticket: Ticket, started: number, until: number): Promise<Admitted> {
    const { clock, signal } = this.#options;
    for (;;) {
      await clock.sleep(until - clock.now(), signal);
      const next = this.#admitOrWait(ticket, started, clock.now());
      if (!("until" in next)) return next;
      until = next.until;
    }
  }

  /**
   * One try at `now`: the request admitted, or until when it waits; throws where waiting would
   * not help or would take longer than the maximum since `started`.
   */
  #admitOrWait(ticket: Ticket, started: number, now: number): Admitted | { until: number } {
    const { maxWaitMs } = this.#options;
    if (this.#refused !== undefined && now < this.#refused.resetAt) throw this.#refused;
    let until: number;
    if (now < this.#pausedUntil) {
      until = this.#pausedUntil;
    } else {
      const admission = ticket.free
        ? { go: true as const }
        : this.#budget.admit(ticket.category, now, ticket.cost);
      if (admission.go) {
        const hold = this.#secondaryHold(ticket, now);
        if (hold === undefined) {
          this.#spend(ticket, now);
          return { ticket, cpu: this.#cpu?.begin(ticket.category) };
        }
        if (!ticket.free) this.#budget.release(ticket.category, ticket.cost);
        until = now + hold.waitMs;
        this.#holdFor(hold, ticket, until, now);
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
    return { until };
  }

  /** Ends an admitted attempt with what its answer reported of the category's window. */
  done(
    attempt: Admitted,
    report: { category: string | undefined; window: RateWindow } | undefined,
    spent: boolean,
  ): void {
    const { ticket } = attempt;
    if (attempt.cpu !== undefined) this.#cpu?.end(attempt.cpu, this.#options.clock.now());
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

  /** The longest wait the secondary limits ask of this request; undefined when none holds it. */
  #secondaryHold(ticket: Ticket, now: number): Hold | undefined {
    const holds: Hold[] = [];
    const cpu = this.#cpu?.wait(ticket.category, now) ?? 0;
    if (cpu > 0) holds.push({ limit: "cpu-time", waitMs: cpu });
    if (!ticket.free) {
      const points = this.#pointsOf(ticket)?.wait(ticket.endpoint, pointsOf(ticket), now) ?? 0;
      if (points > 0) holds.push({ limit: "points", waitMs: points });
      // A GraphQL query counts in the authenticated API's limit, and in no endpoint's.
      const gitlab = this.#options.gitlab?.wait(ticket.method, ticket.path, now);
      if (gitlab !== undefined) {
        holds.push({ limit: "endpoint-limit", waitMs: gitlab.waitMs, group: gitlab.group });
      }
      const content = ticket.creates ? (this.#content?.wait(now) ?? 0) : 0;
      if (content > 0) holds.push({ limit: "content-creation", waitMs: content });
    }
    return holds.sort((a, b) => b.waitMs - a.waitMs)[0];
  }

  /** The points window a request counts in: the GraphQL endpoint has its own budget. */
  #pointsOf(ticket: Ticket): PointWindow | undefined {
    return ticket.graphql ? this.#graphqlPoints : this.#points;
  }

  /** Counts an admitted request against the secondary limits it is held to. */
  #spend(ticket: Ticket, now: number): void {
    if (ticket.free) return;
    this.#pointsOf(ticket)?.spend(ticket.endpoint, pointsOf(ticket), now);
    this.#options.gitlab?.spend(ticket.method, ticket.path, now);
    if (ticket.creates) this.#content?.spend(now);
  }

  /**
   * Announces a wait for a secondary limit, but not one inside a wait already announced nor one
   * shorter than a second: as the oldest spending leaves the window, held requests go one after
   * another with waits of a few milliseconds, which would be noise.
   */
  #holdFor(hold: Hold, ticket: Ticket, until: number, now: number): void {
    const wait: Wait =
      hold.limit === "points"
        ? { category: ticket.endpoint, until, reason: "secondary-limit", endpoint: ticket.endpoint }
        : hold.limit === "endpoint-limit"
          ? { category: hold.group!, until, reason: "endpoint-limit", endpoint: hold.group! }
          : { category: ticket.category, until, reason: hold.limit };
    if (until - now > this.#options.maxWaitMs) {
      throw new RateLimitWaitExceeded(wait.category, until, until - now, this.#options.maxWaitMs, {
        kind: hold.limit,
      });
    }
    const announced = this.#announced.get(`${wait.category} ${wait.reason}`);
    if (until - now >= SKEW_MS && (announced === undefined || announced <= now)) {
      this.#announce(wait, now);
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

function pointsOf(ticket: Ticket): number {
  if (ticket.graphql) return GRAPHQL.queryPoints;
  return ticket.mutating ? POINTS.write : POINTS.read;
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
