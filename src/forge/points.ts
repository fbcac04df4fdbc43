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
    let ledger = this.#spent.get(key);
    if (ledger === undefined) {
      ledger = new Ledger();
      this.#spent.set(key, ledger);
    }
    ledger.expire(now - this.#windowMs);
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
    entries.push({ at: now, cost });
    ledger.used += cost;
    return 0;
  }
}

/**
 * One key's spending in the window, oldest first, with its running total: an admission costs the
 * entries that expire since the last one, not a pass over the whole window. A plan of 10,000
 * repositories sends 20,000 requests to one endpoint inside a minute; summing the window on every
 * admission made pacing quadratic (about 10 of 23 CPU-seconds in `bench/scale.js` at 10,000).
 */
class Ledger {
  readonly entries: { at: number; cost: number }[] = [];
  /** Entries before this index have left the window. */
  first = 0;
  used = 0;

  /** Drops what was spent at or before `cutoff`; dropped entries are compacted away in batches. */
  expire(cutoff: number): void {
    const { entries } = this;
    while (this.first < entries.length && entries[this.first]!.at <= cutoff) {
      this.used -= entries[this.first]!.cost;
      this.first++;
    }
    if (this.first > 1024 && this.first * 2 > entries.length) {
      entries.splice(0, this.first);
      this.first = 0;
    }
  }
}
