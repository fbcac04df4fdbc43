import type { RateWindow } from "../forge/budget.js";
import type { ClientEvent, WaitReason } from "../forge/client.js";
import type { Output } from "./io.js";

/** Calls `tick` every `ms` until the returned function is called; injected so tests need no sleeping. */
export type Every = (ms: number, tick: () => void) => () => void;

export const realEvery: Every = (ms, tick) => {
  const timer = setInterval(tick, ms);
  // A progress line must never keep the process alive on its own.
  timer.unref();
  return () => clearInterval(timer);
};

export interface ProgressOptions {
  /** Where the progress goes (stderr); a terminal gets one line redrawn in place. */
  output: Output;
  now: () => number;
  every: Every;
  /** The rate-limit window with the least budget left, if any was reported. */
  budget: () => RateWindow | undefined;
  /** Redraw period on a terminal; default 500 ms. */
  redrawMs?: number;
  /** Period of plain lines when the output is not a terminal; default 5 s. */
  lineMs?: number;
}

interface Phase {
  label: string;
  total: number | undefined;
  done: number;
  requests: number;
  started: number;
  /** When the answers of the last RATE_WINDOW_MS arrived, for the current rate. */
  recent: number[];
}

/** requests/s is measured over this much recent time, so a wait shows as a rate near 0, not an average. */
const RATE_WINDOW_MS = 10_000;

const CLEAR_LINE = "\r\x1b[2K";

/** HH:MM:SS of an epoch-ms time, in UTC like every other time forgeplan prints. */
export function clockTime(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(11, 19);
}

export function formatEta(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

function waitText(reason: WaitReason, until: number): string {
  const at = `${clockTime(until)} UTC`;
  switch (reason) {
    case "retry-after":
      return `waiting as the service asked (Retry-After) until ${at}`;
    case "secondary-limit":
      return `waiting out a secondary rate limit until ${at}`;
    case "cpu-time":
      return `waiting for CPU time (a secondary rate limit) until ${at}`;
    case "content-creation":
      return `waiting to create more content (a secondary rate limit) until ${at}`;
    case "endpoint-limit":
      return `waiting for GitLab.com's per-endpoint limit until ${at}`;
    default:
      return `waiting for rate-limit reset at ${at}`;
  }
}

/** Of several clients' budgets, the window of `category` with the smallest share left. */
export function tightestWindow(
  snapshots: ReadonlyArray<Record<string, RateWindow>>,
  category = "core",
): RateWindow | undefined {
  let tightest: RateWindow | undefined;
  for (const snapshot of snapshots) {
    const window = snapshot[category];
    if (window === undefined || window.limit <= 0) continue;
    if (
      tightest === undefined ||
      window.remaining / window.limit < tightest.remaining / tightest.limit
    ) {
      tightest = window;
    }
  }
  return tightest;
}

/**
 * The progress of a long run on stderr: on a terminal one line redrawn in place (done/total,
 * requests/s, rate budget left, ETA or the reset being waited for); elsewhere the same line printed
 * plainly every few seconds, so CI logs show a paced run is alive without being flooded.
 * Everything else written to stderr meanwhile goes through `output`, which keeps the live line intact.
 */
export class Progress {
  readonly #options: ProgressOptions;
  #phase: Phase | undefined;
  #wait: { until: number; reason: WaitReason } | undefined;
  #drawn = false;
  #cancel: (() => void) | undefined;

  readonly output: Output;

  constructor(options: ProgressOptions) {
    this.#options = options;
    const target = options.output;
    this.output = {
      isTTY: target.isTTY,
      write: (text) => {
        const redraw = this.#drawn;
        this.#erase();
        target.write(text);
        if (redraw && text.endsWith("\n")) this.#draw();
      },
    };
  }

  /** Starts a phase; `total` is the number of changes when it is known. */
  begin(label: string, total?: number): void {
    this.end();
    const started = this.#options.now();
    this.#phase = { label, total, done: 0, requests: 0, started, recent: [] };
    const tty = this.#options.output.isTTY;
    const period = tty ? (this.#options.redrawMs ?? 500) : (this.#options.lineMs ?? 5000);
    this.#cancel = this.#options.every(period, () => this.#tick());
    if (tty) this.#draw();
  }

  /** Feeds the client's events: answered requests count, waits that hold requests are shown. */
  event(event: ClientEvent): void {
    if (event.type === "request" && this.#phase) {
      this.#phase.requests++;
      this.#phase.recent.push(this.#options.now());
    }
    if (event.type === "wait") {
      this.#wait = { until: event.until, reason: event.reason };
    }
  }

  /** One change of the phase is done (whatever its outcome). */
  settled(): void {
    if (this.#phase) this.#phase.done++;
  }

  /** Ends the phase and takes the live line off the terminal, so the report prints cleanly. */
  end(): void {
    this.#cancel?.();
    this.#cancel = undefined;
    this.#erase();
    this.#phase = undefined;
  }

  /** The current progress line (without line ending), or "" between phases. */
  line(): string {
    const phase = this.#phase;
    if (phase === undefined) return "";
    const now = this.#options.now();
    const elapsed = now - phase.started;
    const parts: string[] = [];
    parts.push(
      phase.total === undefined
        ? `${phase.label}: ${phase.requests} requests`
        : `${phase.label}: ${phase.done}/${phase.total} changes`,
    );
    const since = now - RATE_WINDOW_MS;
    while ((phase.recent[0] ?? now) < since) phase.recent.shift();
    const span = Math.min(elapsed, RATE_WINDOW_MS);
    const rate = span > 0 ? (phase.recent.length * 1000) / span : 0;
    parts.push(`${rate.toFixed(1)} requests/s`);
    const budget = this.#options.budget();
    if (budget !== undefined) parts.push(`rate budget ${budget.remaining}/${budget.limit} left`);
    if (this.#wait !== undefined && now < this.#wait.until) {
      parts.push(waitText(this.#wait.reason, this.#wait.until));
    } else if (phase.total !== undefined && phase.done > 0 && phase.done < phase.total) {
      parts.push(`ETA ${formatEta(((phase.total - phase.done) * elapsed) / phase.done)}`);
    }
    return parts.join(" · ");
  }

  #tick(): void {
    if (this.#options.output.isTTY) this.#draw();
    else if (this.#phase) this.#options.output.write(`forgeplan: ${this.line()}\n`);
  }

  #draw(): void {
    if (this.#phase === undefined) return;
    this.#options.output.write(`${CLEAR_LINE}forgeplan: ${this.line()}`);
    this.#drawn = true;
  }

  #erase(): void {
    if (!this.#drawn) return;
    this.#options.output.write(CLEAR_LINE);
    this.#drawn = false;
  }
}
