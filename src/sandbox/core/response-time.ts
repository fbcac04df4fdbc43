/**
 * GitHub's secondary limit on CPU time ("No more than 90 seconds of CPU time per 60 seconds of real
 * time is allowed", "Rate limits for the REST API"), which the sandbox enforces when started with a
 * limit (`--cpu-limit SECONDS`), measured as GitHub tells clients to estimate it: by response time.
 * A token's requests that ended in the last minute are summed, from arrival to answer (latency
 * included); a request that arrives while the sum is at the limit is answered with the
 * secondary-limit 403.
 */
export class ResponseTimeLimiter {
  static readonly WINDOW_MS = 60_000;
  readonly #ended = new Map<string, Array<{ at: number; tookMs: number }>>();

  constructor(
    private readonly limitMs: number,
    private readonly now: () => number,
  ) {}

  /** Seconds until the token's last minute is under the limit again; undefined when it is now. */
  over(key: string): number | undefined {
    const entries = this.#window(key);
    let used = entries.reduce((sum, entry) => sum + entry.tookMs, 0);
    if (used < this.limitMs) return undefined;
    const now = this.now();
    for (const entry of entries) {
      used -= entry.tookMs;
      if (used < this.limitMs) {
        return Math.max(1, Math.ceil((entry.at + ResponseTimeLimiter.WINDOW_MS - now) / 1000));
      }
    }
    return 1;
  }

  /** A request of the token that arrived at `startedAt` has been answered now. */
  record(key: string, startedAt: number): void {
    const now = this.now();
    const entries = this.#window(key);
    entries.push({ at: now, tookMs: Math.max(0, now - startedAt) });
    this.#ended.set(key, entries);
  }

  /** The token's answers of the last minute, oldest first; older ones are dropped. */
  #window(key: string): Array<{ at: number; tookMs: number }> {
    const cutoff = this.now() - ResponseTimeLimiter.WINDOW_MS;
    const entries = (this.#ended.get(key) ?? []).filter((entry) => entry.at > cutoff);
    this.#ended.set(key, entries);
    return entries;
  }
}
