import { PointWindow } from "./points.js";

/** How many content-creating requests an account may send, in any minute and in any hour. */
export interface ContentLimits {
  perMinute: number;
  perHour: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const KEY = "content";

/**
 * GitHub's limit on content-creating requests (limits.ts, CONTENT_CREATION), counted before each
 * such request is sent so a bulk create is held rather than answered 403: a request goes when both
 * the minute and the hour before it leave room. Both windows slide, which is never looser than the
 * fixed windows a service may count in.
 */
export class ContentCreationWindow {
  readonly #minute: PointWindow;
  readonly #hour: PointWindow;

  /** `share` is this client's part of the account's limits; `skewMs` lengthens both windows. */
  constructor(limits: ContentLimits, share: number, skewMs: number) {
    this.#minute = new PointWindow(limits.perMinute * share, MINUTE_MS + skewMs);
    this.#hour = new PointWindow(limits.perHour * share, HOUR_MS + skewMs);
  }

  /** Milliseconds until one more content-creating request fits both windows; 0 when it fits now. */
  wait(now: number): number {
    return Math.max(this.#minute.wait(KEY, 1, now), this.#hour.wait(KEY, 1, now));
  }

  /** Counts a content-creating request sent at `now`. */
  spend(now: number): void {
    this.#minute.spend(KEY, 1, now);
    this.#hour.spend(KEY, 1, now);
  }
}
