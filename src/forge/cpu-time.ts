import { Ledger } from "./ledger.js";

/** How much response time an account's requests may take in any window, in milliseconds. */
export interface CpuTimeLimits {
  /** Every request's response time together. */
  totalMs: number;
  /** The GraphQL requests' share of it. */
  graphqlMs: number;
  windowMs: number;
}

/** A request this budget has let start: its response time is reserved until it ends. */
export interface CpuLease {
  readonly graphql: boolean;
  /** When it was sent; undefined while it still waits for its credential. */
  sentAt: number | undefined;
}

/** A request's response time, reserved before any has ended: about what GitHub takes for a read. */
const FIRST_ESTIMATE_MS = 1000;
/** How much each ended request moves the estimate of the next (an exponential moving average). */
const SMOOTHING = 0.2;
/** Shortest wait while the requests in flight alone fill the budget: they end, and free it. */
const POLL_MS = 50;

/**
 * GitHub's CPU-time limit (limits.ts, CPU_TIME), estimated as GitHub says to: by the response time
 * of one's requests. A request may start while the response time that ended in the window, what
 * the requests in flight will take (at least the estimate, more once they have taken longer) and an
 * estimate of its own fit the budget; otherwise it waits until enough of the oldest response time
 * has left the window. GraphQL requests count in both the total and their own budget.
 */
export class ResponseTimeBudget {
  readonly #windowMs: number;
  readonly #total: Budget;
  readonly #graphql: Budget;
  readonly #inFlight = new Set<CpuLease>();
  #estimateMs = FIRST_ESTIMATE_MS;

  constructor(limits: CpuTimeLimits) {
    this.#windowMs = limits.windowMs;
    this.#total = { budgetMs: limits.totalMs, ended: new Ledger() };
    this.#graphql = { budgetMs: limits.graphqlMs, ended: new Ledger() };
  }

  /** Milliseconds until a request of `category` fits; 0 when it may start now. */
  wait(category: string, now: number): number {
    const graphql = category === "graphql";
    const waits = [this.#waitIn(this.#total, false, now)];
    if (graphql) waits.push(this.#waitIn(this.#graphql, true, now));
    return Math.max(...waits);
  }

  /** Reserves the response time of a request allowed to start. */
  begin(category: string): CpuLease {
    const lease: CpuLease = { graphql: category === "graphql", sentAt: undefined };
    this.#inFlight.add(lease);
    return lease;
  }

  /** The request left now: its response time runs from here. */
  sent(lease: CpuLease, now: number): void {
    lease.sentAt = now;
  }

  /** The request ended at `now`; one never sent took no time of the service's. */
  end(lease: CpuLease, now: number): void {
    if (!this.#inFlight.delete(lease) || lease.sentAt === undefined) return;
    const tookMs = Math.max(0, now - lease.sentAt);
    this.#total.ended.add(now, tookMs);
    if (lease.graphql) this.#graphql.ended.add(now, tookMs);
    this.#estimateMs += SMOOTHING * (tookMs - this.#estimateMs);
  }

  #waitIn({ budgetMs, ended }: Budget, graphqlOnly: boolean, now: number): number {
    ended.expire(now - this.#windowMs);
    let reserved = 0;
    for (const lease of this.#inFlight) {
      if (graphqlOnly && !lease.graphql) continue;
      const taken = lease.sentAt === undefined ? 0 : now - lease.sentAt;
      reserved += Math.max(this.#estimateMs, taken);
    }
    const fits = (used: number) => used + reserved + this.#estimateMs <= budgetMs;
    // Nothing else counts: a request longer than the whole budget goes alone rather than never.
    if (fits(ended.used) || (ended.used === 0 && reserved === 0)) return 0;
    let used = ended.used;
    for (let index = ended.first; index < ended.entries.length; index++) {
      const entry = ended.entries[index]!;
      used -= entry.cost;
      if (fits(used)) return entry.at + this.#windowMs - now;
    }
    return Math.max(POLL_MS, this.#estimateMs / 2);
  }
}

/** A budget and the response time that ended in its window. */
interface Budget {
  budgetMs: number;
  ended: Ledger;
}
