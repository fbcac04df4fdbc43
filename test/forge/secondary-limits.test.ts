import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { ContentCreationWindow } from "../../src/forge/content-creation.js";
import { ResponseTimeBudget } from "../../src/forge/cpu-time.js";
import { type ClientEvent, ForgeClient, RateLimitWaitExceeded } from "../../src/forge/client.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService } from "./fake-service.js";

const t0 = 1_700_000_000_000;
const MINUTE = 60_000;

describe("ContentCreationWindow", () => {
  it("lets a request go while both the minute and the hour before it leave room", () => {
    const content = new ContentCreationWindow({ perMinute: 3, perHour: 5 }, 1, 0);
    for (const at of [t0, t0, t0]) {
      expect(content.wait(at)).toBe(0);
      content.spend(at);
    }
    expect(content.wait(t0 + 1000)).toBe(MINUTE - 1000);
    for (const at of [t0 + MINUTE, t0 + MINUTE]) {
      expect(content.wait(at)).toBe(0);
      content.spend(at);
    }
    // Five in the hour: the sixth waits for the first to leave the hour.
    expect(content.wait(t0 + 2 * MINUTE)).toBe(60 * MINUTE - 2 * MINUTE);
  });

  it("takes a share of both limits", () => {
    const content = new ContentCreationWindow({ perMinute: 80, perHour: 500 }, 0.25, 0);
    let sent = 0;
    while (content.wait(t0) === 0) {
      content.spend(t0);
      sent++;
    }
    expect(sent).toBe(20);
  });
});

describe("ResponseTimeBudget", () => {
  const budget = (totalMs: number, graphqlMs = totalMs) =>
    new ResponseTimeBudget({ totalMs, graphqlMs, windowMs: MINUTE });

  /** Runs one request of `tookMs` from `at`, as the pacer does. */
  function run(cpu: ResponseTimeBudget, at: number, tookMs: number, category = "core") {
    const lease = cpu.begin(category);
    cpu.sent(lease, at);
    cpu.end(lease, at + tookMs);
  }

  it("holds a request until enough of the oldest response time has left the window", () => {
    const cpu = budget(10_000);
    for (let i = 0; i < 9; i++) run(cpu, t0 + i * 1000, 1000);
    // 9 s ended by t0 + 9 s; the estimate (1 s) fits once.
    expect(cpu.wait("core", t0 + 9000)).toBe(0);
    run(cpu, t0 + 9000, 1000);
    // 10 s used: the next waits for the first second, which ended at t0 + 1 s, to leave.
    expect(cpu.wait("core", t0 + 10_000)).toBe(1000 + MINUTE - 10_000);
  });

  it("reserves what the requests in flight will take, more once they have taken longer", () => {
    const cpu = budget(5000);
    const leases = [1, 2, 3, 4].map(() => cpu.begin("core"));
    for (const lease of leases) cpu.sent(lease, t0);
    expect(cpu.wait("core", t0)).toBe(0);
    const fifth = cpu.begin("core");
    cpu.sent(fifth, t0);
    // Five in flight at a second each fill the budget: the next polls until they end.
    expect(cpu.wait("core", t0)).toBeGreaterThan(0);
    for (const lease of [...leases, fifth]) cpu.end(lease, t0 + 200);
    // They took 0.2 s each: room again, and the estimate has come down.
    expect(cpu.wait("core", t0 + 200)).toBe(0);
  });

  it("counts a request never sent as no time, and lets one go alone into an empty window", () => {
    const cpu = budget(500);
    const unsent = cpu.begin("core");
    cpu.end(unsent, t0 + 5000);
    expect(cpu.wait("core", t0 + 5000)).toBe(0);
  });

  it("keeps GraphQL within its own budget, and in the total", () => {
    const cpu = budget(20_000, 5000);
    for (let i = 0; i < 5; i++) run(cpu, t0, 1000, "graphql");
    expect(cpu.wait("core", t0 + 1000)).toBe(0);
    expect(cpu.wait("graphql", t0 + 1000)).toBe(MINUTE);
    for (let i = 0; i < 15; i++) run(cpu, t0 + 1000, 1000);
    expect(cpu.wait("core", t0 + 2000)).toBeGreaterThan(0);
  });
});

describe("pacing content-creating requests", () => {
  let service: FakeService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  async function setUp(maxWaitMs = 2 * 60 * MINUTE) {
    const clock = new FakeClock();
    service = await FakeService.start(() => ({ status: 201, body: { id: 1 } }), clock);
    const events: ClientEvent[] = [];
    const client = new ForgeClient({
      baseUrl: service.url,
      kind: "repository",
      token: new Secret("t", "T"),
      clock,
      writeIntervalMs: 0,
      cpuTimeLimitMs: Number.POSITIVE_INFINITY,
      contentLimits: { perMinute: 3, perHour: 5 },
      maxWaitMs,
      onEvent: (event) => events.push(event),
    });
    return { client, clock, events, service };
  }

  it("holds POSTs, and PUTs that create, to so many a minute and an hour; other writes go", async () => {
    const { client, clock, events, service } = await setUp();
    const start = clock.now();
    for (let i = 0; i < 3; i++)
      await client.request("POST", `/repos/acme/api/labels`, { body: {} });
    await client.request("PATCH", "/repos/acme/api/hooks/1", { body: {} });
    await client.request("PUT", "/repos/acme/api/branches/main/protection", { body: {} });
    await client.request("PUT", "/repos/acme/api/environments/prod", { body: {}, creates: true });
    await client.request("POST", "/repos/acme/api/labels", { body: {} });
    await client.request("POST", "/repos/acme/api/labels", { body: {} });
    const after = service.received.map((request) => [request.method, request.at - start]);
    expect(after).toEqual([
      ["POST", 0],
      ["POST", 0],
      ["POST", 0],
      ["PATCH", 0],
      ["PUT", 0],
      // The fourth content-creating request waits for the minute (and the second of skew).
      ["PUT", 61_000],
      ["POST", 61_000],
      // The sixth waits for the first to leave the hour.
      ["POST", 60 * MINUTE + 1000],
    ]);
    const waits = events.flatMap((event) =>
      event.type === "wait" ? [[event.reason, event.until - start]] : [],
    );
    expect(waits).toEqual([
      ["content-creation", 61_000],
      ["content-creation", 60 * MINUTE + 1000],
    ]);
  });

  it("stops, unsent, when the wait would be longer than the maximum", async () => {
    const { client, service } = await setUp(15 * MINUTE);
    for (let i = 0; i < 5; i++) {
      await client.request("POST", `/repos/acme/api/labels`, { body: {} });
    }
    const error = await client
      .request("POST", "/repos/acme/api/labels", { body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitWaitExceeded);
    expect((error as Error).message).toMatch(
      /^secondary rate limit on content creation: the content-creating requests of the last minute or hour are spent until .*, longer than the maximum wait of 15 min$/,
    );
    expect(service.received).toHaveLength(5);
  });
});
