import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import {
  type ClientEvent,
  ForgeClient,
  type ForgeClientOptions,
  RateLimitWaitExceeded,
  systemClock,
} from "../../src/forge/client.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService, type Handler, type Reply, WindowLimit } from "./fake-service.js";

let service: FakeService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function setUp(
  handler: (clock: FakeClock) => Handler,
  options: Partial<ForgeClientOptions> = {},
) {
  const clock = new FakeClock();
  service = await FakeService.start(handler(clock), clock);
  const events: ClientEvent[] = [];
  const client = new ForgeClient({
    baseUrl: service.url,
    kind: "repository",
    token: new Secret("t", "T"),
    clock,
    writeIntervalMs: 0,
    // Virtual time leaps while a request is in flight; as response time it would fill the budget.
    cpuTimeLimitMs: Number.POSITIVE_INFINITY,
    onEvent: (e) => events.push(e),
    ...options,
  });
  const waits = () => events.filter((e) => e.type === "wait");
  return { client, clock, events, waits, service };
}

/** GitHub-like service with one core window: /rate_limit is free and reports it. */
function limitedService(limit: WindowLimit): Handler {
  return (request) => {
    if (request.path === "/rate_limit") {
      const h = limit.headers();
      const core = {
        limit: Number(h["x-ratelimit-limit"]),
        remaining: Number(h["x-ratelimit-remaining"]),
        reset: Number(h["x-ratelimit-reset"]),
        used: Number(h["x-ratelimit-used"]),
      };
      return { headers: h, body: { resources: { core }, rate: core } };
    }
    const { headers, refusal } = limit.take();
    return refusal ?? { headers, body: { path: request.path } };
  };
}

describe("pacing by the rate-limit budget", () => {
  for (const prime of [true, false]) {
    it(`does 150 requests against 40 per 3 s with no limited answer (prime: ${prime})`, async () => {
      let limit: WindowLimit | undefined;
      const { client, clock, waits, service } = await setUp((clock) => {
        limit = new WindowLimit(clock, 40, 3000);
        return limitedService(limit);
      });
      if (prime) await client.prime();
      const started = clock.now();
      const work = Array.from({ length: 150 }, (_, i) =>
        i % 5 === 0
          ? client.request("PUT", `/repos/acme/repo-${i % 7}/branches/main/protection`, {
              body: {},
              writeKey: `acme/repo-${i % 7}`,
            })
          : client.request("GET", `/repos/acme/repo-${i}/hooks`),
      );
      const responses = await Promise.all(work);
      expect(responses.every((r) => r.status === 200)).toBe(true);
      expect(limit?.limitedAnswers).toBe(0);
      expect(service.counted()).toHaveLength(150);
      // 30 usable per window (margin 10): five windows, each waited for and announced once.
      const announced = waits().map((w) => (w.type === "wait" ? `${w.reason} ${w.until}` : ""));
      expect(announced.length).toBeGreaterThanOrEqual(4);
      expect(new Set(announced).size).toBe(announced.length);
      expect(waits().every((w) => w.type === "wait" && w.reason === "rate-limit-reset")).toBe(true);
      expect(clock.now() - started).toBeLessThan(25_000);
    });
  }

  it("spends the usable budget at once and then waits for the reset", async () => {
    let limit: WindowLimit | undefined;
    const { client, clock, waits, service } = await setUp(
      (clock) => {
        limit = new WindowLimit(clock, 40, 3000);
        return limitedService(limit);
      },
      { concurrency: 1 },
    );
    await client.prime();
    const start = clock.now();
    for (let i = 0; i < 34; i++) await client.get(`/r/${i}`);
    const at = service.counted().map((r) => r.at - start);
    // 30 usable (margin 10) go without delay; the rest wait for the reset (+1 s skew).
    expect(at.slice(0, 30)).toEqual(Array(30).fill(0));
    expect(at.slice(30)).toEqual(Array(4).fill(4000));
    expect(waits()).toEqual([
      { type: "wait", reason: "rate-limit-reset", category: "core", until: start + 4000 },
    ]);
    expect(limit?.limitedAnswers).toBe(0);
  });

  // With a share of 1 each, two clients this wide overshoot the window (checked by hand).
  it("lets shards with a share each stay clear of the limit together", async () => {
    let limit: WindowLimit | undefined;
    const { client, clock, service } = await setUp(
      (clock) => {
        limit = new WindowLimit(clock, 40, 3000);
        return limitedService(limit);
      },
      { shareOfBudget: 0.5, concurrency: 100 },
    );
    const shard = new ForgeClient({
      baseUrl: service.url,
      kind: "repository",
      clock,
      shareOfBudget: 0.5,
      concurrency: 100,
      cpuTimeLimitMs: Number.POSITIVE_INFINITY,
    });
    await Promise.all([client.prime(), shard.prime()]);
    await Promise.all(
      [client, shard].flatMap((c) => Array.from({ length: 60 }, (_, i) => c.get(`/r/${i}`))),
    );
    expect(service.counted()).toHaveLength(120);
    expect(limit?.limitedAnswers).toBe(0);
  });

  it("waits out a primary rate-limit answer it could not foresee, then retries", async () => {
    const { client, clock, waits } = await setUp((clock) => {
      let calls = 0;
      return () => {
        calls++;
        if (calls > 1) return { body: { ok: true } };
        const reset = Math.ceil(clock.now() / 1000) + 20;
        return {
          status: 403,
          headers: {
            "x-ratelimit-limit": "5000",
            "x-ratelimit-remaining": "0",
            "x-ratelimit-reset": String(reset),
            "x-ratelimit-resource": "core",
          },
          body: { message: "API rate limit exceeded for user ID 1." },
        };
      };
    });
    const before = clock.now();
    expect(await client.get("/repos/acme/api")).toEqual({ ok: true });
    const [wait] = waits();
    expect(wait).toMatchObject({ reason: "rate-limit-reset", category: "core" });
    expect(service?.received[1]?.at).toBeGreaterThanOrEqual(before + 20_000);
    expect(client.stats().waitsMs).toBeGreaterThan(20_000);
  });

  it("honors Retry-After on a secondary limit, pausing every request", async () => {
    const { client, waits, service } = await setUp(() => {
      let refused = false;
      return (): Reply => {
        if (refused) return { body: {} };
        refused = true;
        return {
          status: 403,
          headers: { "retry-after": "30" },
          body: { message: "You have exceeded a secondary rate limit. Please wait a few minutes." },
        };
      };
    });
    await client.get("/first");
    const [wait] = waits();
    expect(wait).toMatchObject({ reason: "secondary-limit" });
    const refusedAt = service.received[0]?.at ?? 0;
    await client.get("/second");
    expect(service.received[1]?.at).toBe(refusedAt + 30_000);
    expect(service.received[2]?.at).toBeGreaterThanOrEqual(refusedAt + 30_000);
  });

  it("waits a minute on a secondary limit without Retry-After", async () => {
    const { client, waits, service } = await setUp(() => {
      let refused = false;
      return (): Reply => {
        if (refused) return { body: {} };
        refused = true;
        return { status: 403, body: { message: "You have exceeded a secondary rate limit." } };
      };
    });
    await client.get("/x");
    expect(waits()).toHaveLength(1);
    expect((service.received[1]?.at ?? 0) - (service.received[0]?.at ?? 0)).toBe(60_000);
  });

  it("tracks GitLab RateLimit-* headers and backs off on a bare 429", async () => {
    const { client, waits, service } = await setUp(
      () => {
        let n = 0;
        return (): Reply =>
          ++n === 1
            ? { status: 429, body: { message: "Retry later" } }
            : {
                headers: {
                  "ratelimit-limit": "2000",
                  "ratelimit-remaining": "1990",
                  "ratelimit-reset": "1700000060",
                  "ratelimit-observed": "10",
                },
                body: [],
              };
      },
      { kind: "planning" },
    );
    await client.get("/api/v4/groups/1/epics");
    expect(waits()[0]).toMatchObject({ reason: "secondary-limit" });
    expect((service.received[1]?.at ?? 0) - (service.received[0]?.at ?? 0)).toBe(60_000);
    expect(client.budget()).toEqual({
      core: { limit: 2000, remaining: 1990, reset: 1700000060, used: 10 },
    });
  });

  it("stops with RateLimitWaitExceeded when the reset is too far away, sending nothing", async () => {
    const { client, clock, service } = await setUp(
      (clock) => () => ({
        body: {
          resources: {
            core: {
              limit: 5000,
              remaining: 5,
              reset: Math.floor(clock.now() / 1000) + 3600,
              used: 4995,
            },
          },
        },
      }),
      { maxWaitMs: 15 * 60_000 },
    );
    await client.prime();
    const error = await client.get("/repos/acme/api").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitWaitExceeded);
    const exceeded = error as RateLimitWaitExceeded;
    expect(exceeded.category).toBe("core");
    expect(exceeded.resetAt).toBe((Math.floor(clock.now() / 1000) + 3600) * 1000 + 1000);
    expect(exceeded.message).toMatch(
      /^rate limit "core" exhausted: it resets at .*Z, 61 min from now/,
    );
    expect(service.counted()).toHaveLength(0);
  });

  it("gives up when every answer is throttled, saying how many were", async () => {
    const { client, service } = await setUp(
      () => () => ({
        status: 429,
        headers: { "retry-after": "1" },
        body: { message: "slow down" },
      }),
      { retries: { max: 2, baseMs: 10, capMs: 100 } },
    );
    const error = await client.get("/x").catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      "GET /x → 429 slow down (gave up after 3 attempts, 3 of them throttled)",
    );
    expect(service.counted()).toHaveLength(3);
  });

  it("stops with RateLimitWaitExceeded when Retry-After is beyond the maximum wait", async () => {
    const { client } = await setUp(
      () => () => ({ status: 429, headers: { "retry-after": "120" }, body: {} }),
      { maxWaitMs: 60_000 },
    );
    await expect(client.get("/x")).rejects.toBeInstanceOf(RateLimitWaitExceeded);
  });

  it("sends nothing more while a Retry-After beyond the maximum wait lasts", async () => {
    // The writes a stop finds queued behind the refused one must not each draw the same answer.
    const { client, clock, service } = await setUp(
      () => () => ({
        status: 403,
        headers: { "retry-after": "600" },
        body: { message: "You have exceeded a secondary rate limit." },
      }),
      { maxWaitMs: 60_000 },
    );
    const first = await client.request("PUT", "/a").catch((e: unknown) => e);
    expect(first).toBeInstanceOf(RateLimitWaitExceeded);
    const queued = await Promise.all(
      ["/b", "/c"].map((path) => client.request("PUT", path).catch((e: unknown) => e)),
    );
    const read = await client.get("/d").catch((e: unknown) => e);
    for (const error of [...queued, read]) {
      expect(error).toBeInstanceOf(RateLimitWaitExceeded);
      expect((error as RateLimitWaitExceeded).message).toBe((first as Error).message);
    }
    expect(service.counted().map((r) => r.path)).toEqual(["/a"]);
    // Once the pause is over, requests go again.
    clock.advance(600_000 + 1000);
    await client.get("/e").catch(() => undefined);
    expect(service.counted().map((r) => r.path)).toEqual(["/a", "/e"]);
  });

  it("stops waiting for a reset as soon as the run is cancelled", async () => {
    service = await FakeService.start(
      () => ({
        body: {
          resources: {
            core: { limit: 60, remaining: 0, reset: Math.floor(Date.now() / 1000) + 600, used: 60 },
          },
        },
      }),
      systemClock,
    );
    const cancel = new AbortController();
    const client = new ForgeClient({
      baseUrl: service.url,
      kind: "repository",
      signal: cancel.signal,
    });
    await client.prime();
    const pending = client.get("/repos/acme/api");
    setTimeout(() => cancel.abort(new Error("interrupted")), 20);
    await expect(pending).rejects.toThrow("interrupted");
    expect(service.counted()).toHaveLength(0);
  });

  it("does not fail the run when /rate_limit does not exist", async () => {
    const { client } = await setUp(
      () => (r) =>
        r.path === "/rate_limit" ? { status: 404, body: { message: "Not Found" } } : { body: {} },
    );
    await client.prime();
    expect(client.budget()).toEqual({});
  });
});
