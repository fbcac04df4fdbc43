import type { Clock } from "../../src/forge/client.js";

/**
 * Virtual time: `sleep` never waits for real. Pending sleeps are woken in time order on the next turn
 * of the event loop, moving `now` to their end. The fake service reads the same clock, so rate
 * windows, resets and Retry-After are consistent between both sides.
 */
export class FakeClock implements Clock {
  #now: number;
  #timers: { at: number; wake: () => void }[] = [];
  #scheduled = false;
  /** Total virtual time slept, summed over sleepers. */
  slept = 0;

  constructor(start = 1_700_000_001_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.slept += Math.max(0, ms);
    return new Promise<void>((resolve, reject) => {
      const timer = { at: this.#now + Math.max(0, ms), wake: resolve };
      this.#timers.push(timer);
      signal?.addEventListener(
        "abort",
        () => {
          this.#timers = this.#timers.filter((t) => t !== timer);
          reject(signal.reason);
        },
        { once: true },
      );
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#timers.length === 0) return;
      this.#now = Math.max(this.#now, Math.min(...this.#timers.map((t) => t.at)));
      const due = this.#timers.filter((t) => t.at <= this.#now);
      this.#timers = this.#timers.filter((t) => t.at > this.#now);
      for (const timer of due) timer.wake();
      if (this.#timers.length > 0) this.#schedule();
    });
  }
}
