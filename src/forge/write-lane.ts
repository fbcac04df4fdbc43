import type { Clock } from "./clock.js";

/**
 * One write at a time. GitHub asks for requests to be made "serially instead of concurrently" and
 * for "at least one second between each" mutating request ("Best practices for using the REST
 * API"); a write that takes longer than the spacing must not overlap the next. A write holds the
 * lane from its first attempt until its last answer is read or it fails, retries included, so a
 * retry is never overtaken by another write. Writers get the lane in the order they asked for it.
 */
export class WriteLane {
  #held = false;
  readonly #waiting: Array<() => void> = [];
  /** When the latest attempt of a write through the lane was sent: the spacing counts from it. */
  lastStart = Number.NEGATIVE_INFINITY;

  /**
   * The lane's release: at once when the lane is free, so a write that asks first is sent first
   * (no promise turn lets requests asked for later pass it); else a promise of it, resolved when it
   * is the caller's turn. A signal that fires while the caller waits rejects it with its reason.
   */
  acquire(signal: AbortSignal | undefined): (() => void) | Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!this.#held) {
      this.#held = true;
      return this.#release();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", cancel);
        resolve(this.#release());
      };
      const cancel = () => {
        const at = this.#waiting.indexOf(grant);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(signal?.reason);
      };
      this.#waiting.push(grant);
      signal?.addEventListener("abort", cancel, { once: true });
    });
  }

  /** Hands the lane to the next writer waiting, or frees it; calling it again does nothing. */
  #release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next === undefined) this.#held = false;
      else next();
    };
  }
}

const lanes = new WeakMap<Clock, Map<string, WriteLane>>();

/**
 * The lane shared by every client in this process that writes to `origin` as `writer` (see
 * AuthProvider.writer). The unit is the account, not a configuration target: the best-practices
 * page once asked for requests "for a single user or client ID" to be serial (quoted in
 * integrations/terraform-provider-github's github/transport.go), and octokit/plugin-throttling
 * shares its `write` group between all instances with one `id`. Lanes are per clock, as
 * `lastStart` is a time on it (a test's virtual clock is its own).
 */
export function writeLaneOf(clock: Clock, origin: string, writer: string): WriteLane {
  let byService = lanes.get(clock);
  if (byService === undefined) {
    byService = new Map();
    lanes.set(clock, byService);
  }
  const key = `${origin} ${writer}`;
  let lane = byService.get(key);
  if (lane === undefined) {
    lane = new WriteLane();
    byService.set(key, lane);
  }
  return lane;
}
