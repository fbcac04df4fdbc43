import type { Clock } from "../../src/forge/client.js";

/**
 * Virtual time shared by a sandbox and the clients of one or more runs: `sleep` never waits for
 * real, and time moves (to the end of the earliest sleep) only once every run taking part is
 * asleep. With clients of concurrency 1, whose only sleeps are their pacing waits, no request is
 * then on its way: the sandbox counts each request in the minute the client sent it in, as on a
 * real clock where a request takes milliseconds and a wait a minute.
 */
export class GatedClock implements Clock {
  #now: number;
  #timers: { at: number; wake: () => void }[] = [];
  #scheduled = false;
  #runs = 1;

  constructor(start = Date.parse("2026-06-01T12:00:00Z")) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** Moves time on between tests, so no window of one is still open in the next. */
  advance(ms: number): void {
    this.#now += ms;
  }

  /** How many runs take part from now on (each must end with `leave`). */
  join(runs: number): void {
    this.#runs = runs;
  }

  /** A run has ended: time no longer waits for it to sleep. */
  leave(): void {
    this.#runs = Math.max(1, this.#runs - 1);
    this.#schedule();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
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
      if (this.#timers.length === 0 || this.#timers.length < this.#runs) return;
      this.#now = Math.max(this.#now, Math.min(...this.#timers.map((t) => t.at)));
      const due = this.#timers.filter((t) => t.at <= this.#now);
      this.#timers = this.#timers.filter((t) => t.at > this.#now);
      for (const timer of due) timer.wake();
    });
  }
}
