import { Ledger } from "./ledger.js";

/**
 * GitHub's secondary limit on points per minute per endpoint: a read costs 1 point, a mutating
 * request 5. The client spends points here before it sends, so it stays under the budget instead of
 * waiting out a 403 with Retry-After.
 *
 * The window slides: a point spent at `t` counts until `t + windowMs`. That is never looser than the
 * fixed windows a service may count in, since any fixed window lies inside some sliding one.
 */
export class PointWindow {
  readonly #budget: number;
  readonly #windowMs: number;
  readonly #spent = new Map<string, Ledger>();

  constructor(budget: number, windowMs = 60_000) {
    this.#budget = budget;
    this.#windowMs = windowMs;
  }

  /**
   * Spends `cost` points on `key` at `now` and returns 0, or spends nothing and returns how many
   * milliseconds until the window can take it. A cost above the whole budget goes alone into an
   * empty window, so it is sent rather than held forever.
   */
  admit(key: string, cost: number, now: number): number {
    const wait = this.wait(key, cost, now);
    if (wait === 0) this.spend(key, cost, now);
    return wait;
  }

  /** How many milliseconds until `cost` points fit on `key`; 0 when they fit now. Spends nothing. */
  wait(key: string, cost: number, now: number): number {
    const ledger = this.#ledger(key, now);
    const { entries, first } = ledger;
    if (first < entries.length && ledger.used + cost > this.#budget) {
      // Oldest first: the wait ends when enough of the oldest spending has left the window.
      let used = ledger.used;
      for (let index = first; index < entries.length; index++) {
        const entry = entries[index]!;
        used -= entry.cost;
        if (used + cost <= this.#budget || used === 0) return entry.at + this.#windowMs - now;
      }
    }
    return 0;
  }

  /** Spends `cost` points on `key` at `now`, whether or not they fit (after `wait` said they do). */
  spend(key: string, cost: number, now: number): void {
    this.#ledger(key, now).add(now, cost);
  }

  #ledger(key: string, now: number): Ledger {
    let ledger = this.#spent.get(key);
    if (ledger === undefined) {
      ledger = new Ledger();
      this.#spent.set(key, ledger);
    }
    ledger.expire(now - this.#windowMs);
    return ledger;
  }
}
