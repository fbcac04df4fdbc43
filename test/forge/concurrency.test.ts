import { afterEach, describe, expect, it } from "vitest";
import { ForgeClient, type ForgeClientOptions } from "../../src/forge/client.js";
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

  it("serializes writes with the same key and lets other keys proceed", async () => {
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
    expect(maxOverall).toBe(2);
    const order = service.received
      .filter((r) => r.path.startsWith("/repos/acme/api/"))
      .map((r) => (r.body as { i: number }).i);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });
});
