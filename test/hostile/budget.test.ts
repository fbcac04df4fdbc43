import { describe, expect, it } from "vitest";
import { type Clock, ForgeError, RateLimitWaitExceeded } from "../../src/forge/client.js";
import { answer, clientOf, failure, hostile, json } from "./server.js";

/** A service whose /rate_limit reports `core` as given and whose other answers are `{}`. */
function reporting(core: (n: number) => Record<string, number>) {
  let reports = 0;
  return hostile((req, res) =>
    req.url === "/rate_limit"
      ? answer(res, 200, json, { resources: { core: core(++reports) } })
      : answer(res, 200, json, {}),
  );
}

describe("a rate budget that can never admit a request", () => {
  it("ends at once when the service reports a limit of 0", { timeout: 5000 }, async () => {
    const service = await reporting(() => ({ limit: 0, remaining: 0, reset: 1, used: 0 }));
    const { client, clock } = clientOf(service.url);
    const started = clock.now();
    await client.prime();
    const error = await failure(client.get("/repos/acme/api"));
    expect(error).toBeInstanceOf(ForgeError);
    expect(error.message).toBe(
      "GET /repos/acme/api → not sent: the service reports a limit of 0 requests for core: no request can be sent with this token",
    );
    expect(service.seen.map((r) => r.url)).toEqual(["/rate_limit"]);
    expect(clock.now() - started).toBe(0);
  });

  it(
    "ends at once when this client's share of a tiny limit is nothing",
    { timeout: 5000 },
    async () => {
      const service = await reporting(() => ({ limit: 1, remaining: 1, reset: 1, used: 0 }));
      const { client } = clientOf(service.url, { shareOfBudget: 0.5 });
      await client.prime();
      expect((await failure(client.get("/repos/acme/api"))).message).toBe(
        "GET /repos/acme/api → not sent: the service reports a limit of 1 request for core: this client's share (0.5) of it, less the reserve kept, leaves none to send",
      );
    },
  );
});

/** Time that moves only when the test moves it, so a test can act in the middle of a wait. */
class ManualClock implements Clock {
  #now = 1_700_000_001_000;
  #sleepers: { at: number; wake: () => void }[] = [];

  now(): number {
    return this.#now;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((wake) => this.#sleepers.push({ at: this.#now + ms, wake }));
  }

  /** Moves time on and wakes whoever's sleep has ended; resolves once they have run. */
  async advance(ms: number): Promise<void> {
    this.#now += ms;
    const due = this.#sleepers.filter((s) => s.at <= this.#now);
    this.#sleepers = this.#sleepers.filter((s) => s.at > this.#now);
    for (const sleeper of due) sleeper.wake();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("waits for the budget", () => {
  it("are bounded by the maximum wait in total, not per window", { timeout: 5000 }, async () => {
    // Each report moves the window on, empty again: 50 s, then 100 s from the start.
    let start = 0;
    const service = await reporting((n) => ({
      limit: 100,
      remaining: 0,
      reset: Math.floor(start / 1000) + 50 * n,
      used: 100,
    }));
    const clock = new ManualClock();
    const { client } = clientOf(service.url, { maxWaitMs: 60_000, clock });
    start = clock.now();
    await client.prime();
    const pending = failure(client.get("/repos/acme/api"));
    await clock.advance(0);
    await clock.advance(40_000);
    await client.rateLimitStatus();
    await clock.advance(11_000);
    const error = await pending;
    expect(error).toBeInstanceOf(RateLimitWaitExceeded);
    expect(error.message).toMatch(
      /^rate limit "core": a request has already waited 51 s and would wait 50 s more, until .*Z, more in total than the maximum wait of 60 s$/,
    );
    expect(service.seen.map((r) => r.url)).toEqual(["/rate_limit", "/rate_limit"]);
  });
});
