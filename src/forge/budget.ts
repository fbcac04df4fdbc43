/** One rate-limit category as the service last reported it. `reset` is in epoch seconds. */
export interface RateWindow {
  limit: number;
  remaining: number;
  reset: number;
  used: number;
}

export interface PacingPolicy {
  /** Requests kept in reserve per category; default max(10, 2% of the limit). */
  margin?: number;
  /** Fraction of the remaining budget this client may spend (sharded runs share one token). */
  share: number;
  /** Added to every reset time: the service's clock and ours differ, and resets are whole seconds. */
  skewMs: number;
}

export type Admission =
  | { go: true }
  | { go: false; until: number; reason: "rate-limit-reset" }
  /** The window has reset but our own requests in flight still hold what is usable. */
  | { go: false; until: number; reason: "pace" }
  /** Even a fresh window leaves this client nothing (a limit of 0, or a share of a tiny one). */
  | { go: false; reason: "unusable"; limit: number };

/**
 * The rate-limit budget per category, and the decision whether a request may start now.
 *
 * A request may start while `floor((remaining - margin) × share) - inFlight > 0`; when nothing is
 * left the answer is to wait for the reset. Requests are not spread over the window: that never ends
 * a run sooner, and a run that needs most of what is left (a plan of 3,000 reads on a fresh
 * 5,000-an-hour token) would otherwise crawl through its second half for the rest of the hour. After
 * a reset has passed the category is assumed fresh until the next response reports the new window.
 */
export class RateBudget {
  readonly #policy: PacingPolicy;
  readonly #windows = new Map<string, RateWindow>();
  readonly #inFlight = new Map<string, number>();

  constructor(policy: PacingPolicy) {
    this.#policy = policy;
  }

  /** Merges a report; responses arrive out of order, so within one window remaining only falls. */
  observe(category: string, window: RateWindow): void {
    const current = this.#windows.get(category);
    if (current === undefined || window.reset > current.reset) {
      this.#windows.set(category, { ...window });
    } else if (window.reset === current.reset) {
      this.#windows.set(category, {
        limit: window.limit,
        remaining: Math.min(current.remaining, window.remaining),
        reset: window.reset,
        used: Math.max(current.used, window.used),
      });
    }
  }

  /**
   * Decides whether a request of `category` costing `cost` (a REST request 1; a GraphQL query the
   * points its cost is predicted at) may start at `now`; if so, counts its cost as in flight.
   */
  admit(category: string, now: number, cost = 1): Admission {
    const inFlight = this.#inFlight.get(category) ?? 0;
    const window = this.#windows.get(category);
    if (window !== undefined) {
      const resetMs = window.reset * 1000 + this.#policy.skewMs;
      const rolledOver = now >= resetMs;
      const margin = this.margin(window.limit);
      const usable = (remaining: number) => Math.floor((remaining - margin) * this.#policy.share);
      // Waiting would never help: every window would be as empty as this one.
      if (usable(window.limit) < cost)
        return { go: false, reason: "unusable", limit: window.limit };
      const available = usable(rolledOver ? window.limit : window.remaining) - inFlight;
      if (available < cost) {
        // After a reset the budget is back; what is short is only our own in-flight requests.
        return rolledOver
          ? { go: false, until: now + this.#policy.skewMs, reason: "pace" }
          : { go: false, until: resetMs, reason: "rate-limit-reset" };
      }
    }
    this.#inFlight.set(category, inFlight + cost);
    return { go: true };
  }

  /** Ends an admitted request of that cost; what its response reported goes to `observe`. */
  release(category: string, cost = 1): void {
    this.#inFlight.set(category, Math.max(0, (this.#inFlight.get(category) ?? 0) - cost));
  }

  /** The service may have counted a request that brought no report; assume it did, at its cost. */
  assumeSpent(category: string, cost = 1): void {
    const window = this.#windows.get(category);
    if (window === undefined) return;
    window.remaining = Math.max(0, window.remaining - cost);
    window.used += cost;
  }

  /**
   * What may still start in a category before its window resets (this client's share, less the
   * reserve), the window's limit and its reset (epoch seconds); undefined before any report.
   */
  headroom(category: string): { usable: number; limit: number; reset: number } | undefined {
    const window = this.#windows.get(category);
    if (window === undefined) return undefined;
    const margin = this.margin(window.limit);
    const usable = Math.max(0, Math.floor((window.remaining - margin) * this.#policy.share));
    return { usable, limit: window.limit, reset: window.reset };
  }

  margin(limit: number): number {
    const wanted = this.#policy.margin ?? Math.max(10, Math.ceil(limit * 0.02));
    // A margin as large as the limit would stall forever; keep at least half the window usable.
    return Math.min(wanted, Math.floor(limit / 2));
  }

  snapshot(): Record<string, RateWindow> {
    return Object.fromEntries([...this.#windows].map(([category, w]) => [category, { ...w }]));
  }
}
