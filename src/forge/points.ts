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
  readonly #spent = new Map<string, { at: number; cost: number }[]>();

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
    const entries = (this.#spent.get(key) ?? []).filter((e) => e.at + this.#windowMs > now);
    let used = entries.reduce((sum, e) => sum + e.cost, 0);
    if (entries.length > 0 && used + cost > this.#budget) {
      // Oldest first: the wait ends when enough of the oldest spending has left the window.
      for (const entry of entries) {
        used -= entry.cost;
        if (used + cost <= this.#budget || used === 0) return entry.at + this.#windowMs - now;
      }
    }
    entries.push({ at: now, cost });
    this.#spent.set(key, entries);
    return 0;
  }
}
