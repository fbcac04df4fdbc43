import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import {
  type ClientEvent,
  ForgeClient,
  type ForgeClientOptions,
  systemClock,
} from "../../src/forge/client.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService, type Handler } from "./fake-service.js";

let service: FakeService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function setUp(handler: Handler, options: Partial<ForgeClientOptions>) {
  const clock = new FakeClock();
  service = await FakeService.start(handler, clock);
  const client = new ForgeClient({ baseUrl: service.url, kind: "repository", clock, ...options });
  return { client, service, clock };
}

describe("secondary-limit hygiene", () => {
  it("never has more requests in flight than its concurrency", async () => {
    const { client, service } = await setUp(() => ({ body: {}, delayMs: 25 }), { concurrency: 4 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => client.get(`/repos/acme/r${i}`)));
    expect(service.received).toHaveLength(40);
    expect(service.maxInFlight).toBe(4);
  });

  it("sends the next request as an answer's last byte comes in, before that answer is handed back", async () => {
    // With one slot, each GET waits for the one before. It is sent (and counted) before that one's
    // answer has been parsed and reported: the `request` event comes after the parsing.
    const sentBeforeReported: number[] = [];
    const counted: { requests: () => number } = { requests: () => 0 };
    const { client } = await setUp(
      (request) =>
        request.path.endsWith("/missing")
          ? { status: 404, body: { message: "Not Found" } }
          : { body: {} },
      {
        concurrency: 1,
        onEvent: (event) => {
          if (event.type === "request") sentBeforeReported.push(counted.requests());
        },
      },
    );
    counted.requests = () => client.stats().requests;
    await Promise.all([
      client.getOrUndefined("/repos/acme/missing"),
      client.get("/repos/acme/r1"),
      client.get("/repos/acme/r2"),
    ]);
    expect(sentBeforeReported).toEqual([2, 3, 3]);
  });

  it("spaces mutating requests by the write interval", async () => {
    // Virtual time moves on while other requests are on the wire, so the send time is taken from
    // the client's own events (emitted at `now`, `ms` after the send) rather than from arrival.
    const sentAt: number[] = [];
    const { client, clock } = await setUp(() => ({ body: {} }), {
      writeIntervalMs: 1000,
      onEvent: (e) => {
        if (e.type === "request" && e.method === "PATCH") sentAt.push(clock.now() - e.ms);
      },
    });
    const start = clock.now();
    await Promise.all([
      ...Array.from({ length: 4 }, (_, i) =>
        client.request("PATCH", `/repos/acme/r${i}/hooks/1`, { body: {} }),
      ),
      ...Array.from({ length: 4 }, (_, i) => client.get(`/repos/acme/r${i}`)),
    ]);
    expect(sentAt.map((t) => t - start)).toEqual([0, 1000, 2000, 3000]);
  });

  it("lets reads pass writes that wait for their turn", async () => {
    const { client, service } = await setUp(() => ({ body: {} }), {
      writeIntervalMs: 1000,
      concurrency: 1,
    });
    await Promise.all([
      ...Array.from({ length: 3 }, (_, i) => client.request("DELETE", `/repos/acme/r${i}/hooks/1`)),
      ...Array.from({ length: 4 }, (_, i) => client.get(`/repos/acme/r${i}`)),
    ]);
    expect(service.received.map((r) => r.method)).toEqual([
      "DELETE",
      "GET",
      "GET",
      "GET",
      "GET",
      "DELETE",
      "DELETE",
    ]);
  });

  it("serializes writes with the same key, in order, and every write one at a time", async () => {
    const inFlight = new Map<string, number>();
    let maxPerKey = 0;
    let maxOverall = 0;
    const handler: Handler = async (request) => {
      const key = request.path.split("/").slice(2, 4).join("/");
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
      maxPerKey = Math.max(maxPerKey, inFlight.get(key) ?? 0);
      maxOverall = Math.max(
        maxOverall,
        [...inFlight.values()].reduce((a, b) => a + b, 0),
      );
      await new Promise((r) => setTimeout(r, 30));
      inFlight.set(key, (inFlight.get(key) ?? 0) - 1);
      return { body: {} };
    };
    const { client, service } = await setUp(handler, { writeIntervalMs: 0 });
    await Promise.all(
      ["acme/api", "acme/web"].flatMap((repo) =>
        Array.from({ length: 5 }, (_, i) =>
          client.request("PUT", `/repos/${repo}/branches/b${i}/protection`, {
            body: { i },
            writeKey: repo,
          }),
        ),
      ),
    );
    expect(maxPerKey).toBe(1);
    // Writes of other keys used to overlap (2 here); GitHub asks for writes one at a time.
    expect(maxOverall).toBe(1);
    const order = service.received
      .filter((r) => r.path.startsWith("/repos/acme/api/"))
      .map((r) => (r.body as { i: number }).i);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it("serializes reads with the same key and lets other keys proceed", async () => {
    const { client, service } = await setUp(() => ({ body: {}, delayMs: 30 }), {});
    const keyed = ["acme/api", "acme/api", "acme/web"].map((repo, i) =>
      client.request("GET", `/repos/${repo}/hooks?n=${i}`, { writeKey: repo }),
    );
    await Promise.all(keyed);
    expect(service.maxInFlight).toBe(2);
    // The second read of acme/api waits for the first; acme/web's went alongside it.
    expect(service.received.map((r) => r.path)[2]).toBe("/repos/acme/api/hooks?n=1");
  });
});

/** Send times of the client's writes, from its request events (`ms` after the send, at `now`). */
function writeStarts(clock: FakeClock, sentAt: number[]) {
  return (e: ClientEvent) => {
    if (e.type === "request" && e.method !== "GET") sentAt.push(clock.now() - e.ms);
  };
}

describe("writes one at a time", () => {
  for (const kind of ["repository", "planning"] as const) {
    it(`never has two writes in flight, however long each takes (${kind})`, async () => {
      const { client, service } = await setUp(() => ({ body: {}, delayMs: 40 }), {
        kind,
        writeIntervalMs: 1000,
      });
      await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          client.request("PATCH", `/repos/acme/r${i}/hooks/1`, { body: {} }),
        ),
      );
      expect(service.received).toHaveLength(5);
      expect(service.maxInFlight).toBe(1);
    });
  }

  it("starts the next write when the last has answered and the interval since its start is over", async () => {
    const sentAt: number[] = [];
    const clock = new FakeClock();
    // Each write takes virtual time on the service: 300 ms for the first two, then 1,500 ms.
    const takes = [300, 300, 1500, 1500];
    service = await FakeService.start(() => {
      clock.advance(takes.shift() ?? 0);
      return { body: {} };
    }, clock);
    const client = new ForgeClient({
      baseUrl: service.url,
      kind: "repository",
      clock,
      writeIntervalMs: 1000,
      onEvent: writeStarts(clock, sentAt),
    });
    const start = clock.now();
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        client.request("DELETE", `/repos/acme/r${i}/hooks/1`, { writeKey: `acme/r${i}` }),
      ),
    );
    // A second from the start of each short write; right after each long one has answered.
    expect(sentAt.map((t) => t - start)).toEqual([0, 1000, 2000, 3500, 5000]);
  });

  it("sends a write's retry before any other write, spaced like a new write", async () => {
    const sentAt: number[] = [];
    let failed = false;
    const { client, clock, service } = await setUp(
      (request) => {
        if (request.path.includes("/r0/") && !failed) {
          failed = true;
          return { status: 502, body: { message: "Server Error" } };
        }
        return { body: {} };
      },
      {
        writeIntervalMs: 1000,
        random: () => 0,
        onEvent: (e) => writeStarts(clock, sentAt)(e),
      },
    );
    const start = clock.now();
    await Promise.all(
      [0, 1, 2].map((i) => client.request("PUT", `/repos/acme/r${i}/topics`, { body: {} })),
    );
    expect(service.received.map((r) => r.path)).toEqual([
      "/repos/acme/r0/topics",
      "/repos/acme/r0/topics",
      "/repos/acme/r1/topics",
      "/repos/acme/r2/topics",
    ]);
    expect(sentAt.map((t) => t - start)).toEqual([0, 1000, 2000, 3000]);
  });

  it("shares the lane between clients writing to one service with one token", async () => {
    const clock = new FakeClock();
    service = await FakeService.start(() => ({ body: {}, delayMs: 100 }), clock);
    const url = service.url;
    const client = (token: string) =>
      new ForgeClient({
        baseUrl: url,
        kind: "repository",
        token: new Secret(token, "T"),
        clock,
        writeIntervalMs: 0,
      });
    const write = (c: ForgeClient, i: number) =>
      c.request("PATCH", `/repos/acme/r${i}/hooks/1`, { body: {} });
    const [first, second] = [client("t"), client("t")];
    await Promise.all([0, 1, 2].flatMap((i) => [write(first, i), write(second, i)]));
    expect(service.maxInFlight).toBe(1);

    // Another token is another writer to the service: its writes are paced on their own.
    service.maxInFlight = 0;
    const other = client("u");
    await Promise.all([0, 1, 2].flatMap((i) => [write(first, i), write(other, i)]));
    expect(service.maxInFlight).toBe(2);
  });

  it("stops a write that waits for the lane as soon as the run is cancelled", async () => {
    service = await FakeService.start(() => ({ body: {}, delayMs: 2000 }), systemClock);
    const cancel = new AbortController();
    const client = new ForgeClient({
      baseUrl: service.url,
      kind: "repository",
      writeIntervalMs: 0,
      signal: cancel.signal,
    });
    const slow = client.request("PATCH", "/repos/acme/r0/hooks/1", { body: {} });
    const queued = client.request("PATCH", "/repos/acme/r1/hooks/1", { body: {} });
    // Cancel only once the first write is in the service's hands: on a loaded machine a fixed
    // delay can pass before it is sent, and then neither write would reach the service.
    while (service.received.length === 0) await new Promise((r) => setTimeout(r, 5));
    const began = Date.now();
    cancel.abort(new Error("interrupted"));
    await expect(queued).rejects.toThrow("interrupted");
    await expect(slow).rejects.toThrow("interrupted");
    expect(Date.now() - began).toBeLessThan(1000);
    expect(service.received.map((r) => r.path)).toEqual(["/repos/acme/r0/hooks/1"]);
  });

  it("does not count the wait behind earlier writes towards the maximum wait", async () => {
    const clock = new FakeClock();
    // Each write takes ten virtual minutes: the last of four waits thirty behind the others.
    service = await FakeService.start(() => {
      clock.advance(10 * 60_000);
      return { body: {} };
    }, clock);
    const client = new ForgeClient({
      baseUrl: service.url,
      kind: "repository",
      clock,
      maxWaitMs: 15 * 60_000,
    });
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        client.request("POST", `/repos/acme/r${i}/hooks`, { body: {} }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });
});
