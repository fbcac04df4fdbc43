import { describe, expect, it } from "vitest";
import type { RateWindow } from "../../src/forge/budget.js";
import { formatEta, Progress, tightestWindow } from "../../src/cli/progress.js";

/** A fake clock and timer: time moves only when the test says, and ticks fire on demand. */
function harness(tty: boolean, budget?: RateWindow) {
  let now = Date.UTC(2026, 4, 1, 12, 0, 0);
  let written = "";
  const timers: Array<{ ms: number; tick: () => void; live: boolean }> = [];
  const progress = new Progress({
    output: {
      isTTY: tty,
      write: (text) => {
        written += text;
      },
    },
    now: () => now,
    every: (ms, tick) => {
      const timer = { ms, tick, live: true };
      timers.push(timer);
      return () => {
        timer.live = false;
      };
    },
    budget: () => budget,
  });
  return {
    progress,
    advance(ms: number) {
      now += ms;
      for (const timer of timers.filter((t) => t.live)) timer.tick();
    },
    output: () => written,
    clear() {
      written = "";
    },
    live: () => timers.filter((t) => t.live),
    at: (offsetMs: number) => now + offsetMs,
  };
}

const window: RateWindow = { limit: 5000, remaining: 4321, reset: 0, used: 679 };

describe("progress line", () => {
  it("shows done/total, requests per second, the budget left and an ETA", () => {
    const h = harness(false, window);
    h.progress.begin("applying", 60);
    for (let i = 0; i < 40; i++)
      h.progress.event({
        type: "request",
        method: "PUT",
        path: "/x",
        status: 200,
        ms: 5,
        fromCache: false,
      });
    for (let i = 0; i < 20; i++) h.progress.settled();
    h.advance(10_000);
    expect(h.progress.line()).toBe(
      "applying: 20/60 changes · 4.0 requests/s · rate budget 4321/5000 left · ETA 20s",
    );
  });

  it("shows the reset being waited for instead of an ETA, until it has passed", () => {
    const h = harness(false, window);
    h.progress.begin("applying", 10);
    h.progress.settled();
    const until = h.at(90_000);
    h.progress.event({ type: "wait", until, reason: "rate-limit-reset", category: "core" });
    h.advance(1_000);
    expect(h.progress.line()).toContain("waiting for rate-limit reset at 12:01:30 UTC");
    expect(h.progress.line()).not.toContain("ETA");
    h.advance(90_000);
    expect(h.progress.line()).toContain("ETA");
  });

  it("measures requests per second over the last ten seconds", () => {
    const h = harness(false);
    h.progress.begin("applying", 5);
    for (let i = 0; i < 30; i++) {
      h.progress.event({
        type: "request",
        method: "GET",
        path: "/x",
        status: 200,
        ms: 5,
        fromCache: false,
      });
    }
    h.advance(20_000);
    h.progress.event({
      type: "request",
      method: "GET",
      path: "/x",
      status: 200,
      ms: 5,
      fromCache: false,
    });
    h.advance(1_000);
    expect(h.progress.line()).toBe("applying: 0/5 changes · 0.1 requests/s");
  });

  it("counts requests when the total is not known (reading live state)", () => {
    const h = harness(false);
    h.progress.begin("reading live state");
    h.progress.event({
      type: "request",
      method: "GET",
      path: "/x",
      status: 200,
      ms: 5,
      fromCache: false,
    });
    h.advance(500);
    expect(h.progress.line()).toBe("reading live state: 1 requests · 2.0 requests/s");
  });
});

describe("on a non-terminal", () => {
  it("prints a plain line every few seconds and nothing else", () => {
    const h = harness(false, window);
    h.progress.begin("applying", 4);
    expect(h.output()).toBe("");
    expect(h.live().map((t) => t.ms)).toEqual([5000]);
    h.progress.settled();
    h.advance(5000);
    expect(h.output()).toBe(
      "forgeplan: applying: 1/4 changes · 0.0 requests/s · rate budget 4321/5000 left · ETA 15s\n",
    );
    h.progress.output.write("forgeplan: waiting for rate-limit reset (core) until 12:10:00 UTC\n");
    h.progress.end();
    expect(h.live()).toEqual([]);
    expect(h.output().split("\n")).toHaveLength(3);
  });
});

describe("on a terminal", () => {
  it("redraws one line in place, keeps it under other stderr lines and clears it at the end", () => {
    const h = harness(true, window);
    h.progress.begin("applying", 2);
    expect(h.live().map((t) => t.ms)).toEqual([500]);
    expect(h.output()).toBe(
      "\r\x1b[2Kforgeplan: applying: 0/2 changes · 0.0 requests/s · rate budget 4321/5000 left",
    );
    h.clear();
    h.progress.settled();
    h.advance(500);
    expect(h.output()).toBe(
      "\r\x1b[2Kforgeplan: applying: 1/2 changes · 0.0 requests/s · rate budget 4321/5000 left · ETA 1s",
    );
    h.clear();
    h.progress.output.write("forgeplan: a message\n");
    expect(h.output()).toBe(
      "\r\x1b[2Kforgeplan: a message\n\r\x1b[2Kforgeplan: applying: 1/2 changes · 0.0 requests/s · rate budget 4321/5000 left · ETA 1s",
    );
    h.clear();
    h.progress.end();
    expect(h.output()).toBe("\r\x1b[2K");
    h.progress.output.write("report\n");
    expect(h.output()).toBe("\r\x1b[2Kreport\n");
  });
});

describe("helpers", () => {
  it("formats an ETA in seconds, minutes or hours", () => {
    expect([formatEta(400), formatEta(42_000), formatEta(65_000), formatEta(3_725_000)]).toEqual([
      "0s",
      "42s",
      "1m05s",
      "1h02m",
    ]);
  });

  it("picks the core window with the smallest share left across clients", () => {
    const a = { core: { limit: 5000, remaining: 1000, reset: 1, used: 4000 } };
    const b = {
      core: { limit: 2000, remaining: 100, reset: 1, used: 1900 },
      search: { limit: 30, remaining: 0, reset: 1, used: 30 },
    };
    expect(tightestWindow([a, b])).toEqual(b.core);
    expect(tightestWindow([{}])).toBeUndefined();
  });
});
