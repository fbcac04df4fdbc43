/**
 * What was spent in a sliding window, oldest first, with its running total: an admission costs the
 * entries that expire since the last one, not a pass over the whole window. A plan of 10,000
 * repositories sends 20,000 requests to one endpoint inside a minute; summing the window on every
 * admission made pacing quadratic (about 10 of 23 CPU-seconds in `bench/scale.js` at 10,000).
 */
export class Ledger {
  readonly entries: { at: number; cost: number }[] = [];
  /** Entries before this index have left the window. */
  first = 0;
  used = 0;

  add(at: number, cost: number): void {
    this.entries.push({ at, cost });
    this.used += cost;
  }

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
