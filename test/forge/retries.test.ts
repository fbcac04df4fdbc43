import { afterEach, describe, expect, it } from "vitest";
import { ForgeClient, type ClientEvent, ForgeError } from "../../src/forge/client.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService, type Handler, type Reply } from "./fake-service.js";

let service: FakeService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** Answers with `script` in order, then `rest` forever. */
function scripted(script: Reply[], rest: Reply = { body: { ok: true } }): Handler {
  let next = 0;
  return () => script[next++] ?? rest;
}

async function setUp(
  handler: Handler,
  options: { timeoutMs?: number; random?: () => number } = {},
) {
  const clock = new FakeClock();
  service = await FakeService.start(handler, clock);
  const events: ClientEvent[] = [];
  const client = new ForgeClient({
    baseUrl: service.url,
    kind: "repository",
    clock,
    writeIntervalMs: 0,
    retries: { max: 5, baseMs: 500, capMs: 4000 },
    random: options.random ?? (() => 0.999),
    onEvent: (e) => events.push(e),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const retries = () =>
    events.flatMap((e) =>
      e.type === "retry" ? [{ attempt: e.attempt, delayMs: e.delayMs, reason: e.reason }] : [],
    );
  return { client, events, retries, clock };
}

const bad = (status: number): Reply => ({ status, body: { message: "trouble" } });

describe("retries", () => {
  it("retries 502 and 503 with exponential full-jitter backoff, then succeeds", async () => {
    const { client, retries } = await setUp(scripted([bad(502), bad(503), bad(502)]));
    expect(await client.get("/repos/acme/api")).toEqual({ ok: true });
    expect(retries()).toEqual([
      { attempt: 1, delayMs: 499, reason: "502 trouble" },
      { attempt: 2, delayMs: 999, reason: "503 trouble" },
      { attempt: 3, delayMs: 1998, reason: "502 trouble" },
    ]);
    expect(client.stats()).toMatchObject({ requests: 4, retries: 3 });
  });

  it("draws each delay uniformly below min(cap, base × 2^n) and gives up after max retries", async () => {
    const draws = [0.5, 0.25, 0.75, 0.1, 0.9];
    const { client, retries } = await setUp(() => bad(500), { random: () => draws.shift() ?? 0 });
    const error = await client.get("/repos/acme/api").catch((e: unknown) => e);
    expect(retries().map((r) => r.delayMs)).toEqual([250, 250, 1500, 400, 3600]);
    expect(error).toBeInstanceOf(ForgeError);
    expect((error as ForgeError).message).toBe(
      "GET /repos/acme/api → 500 trouble (gave up after 6 attempts)",
    );
  });

  it("caps the delay", async () => {
    const { client, retries } = await setUp(() => bad(503), { random: () => 0.999 });
    await client.get("/x").catch(() => undefined);
    expect(Math.max(...retries().map((r) => r.delayMs))).toBeLessThan(4000);
    expect(retries().at(-1)?.delayMs).toBe(3996);
  });

  it("retries a connection reset", async () => {
    const { client, retries } = await setUp(scripted([{ reset: true }, { reset: true }]));
    await client.request("PUT", "/repos/acme/api/branches/main/protection", { body: {} });
    expect(retries()).toHaveLength(2);
    expect(retries()[0]?.reason).toMatch(/other side closed|socket hang up|ECONNRESET/);
  });

  it("retries a timeout", async () => {
    const { client, retries } = await setUp(scripted([{ delayMs: 400 }]), { timeoutMs: 100 });
    expect(await client.get("/x")).toEqual({ ok: true });
    expect(retries()[0]?.reason).toBe("timed out after 100 ms");
  });

  it("ends a request in flight when the client is stopped, and sends no other attempt", async () => {
    const clock = new FakeClock();
    service = await FakeService.start(scripted([{ delayMs: 5000 }]), clock);
    const stop = new AbortController();
    const events: ClientEvent[] = [];
    const client = new ForgeClient({
      baseUrl: service.url,
      kind: "repository",
      clock,
      signal: stop.signal,
      onEvent: (e) => events.push(e),
    });
    const reading = client.get("/x").catch((e: unknown) => e);
    setTimeout(() => stop.abort(new Error("stopped by the user")), 50);
    const started = Date.now();
    expect(await reading).toEqual(new Error("stopped by the user"));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(events.filter((e) => e.type === "retry")).toEqual([]);
    expect(service.received).toHaveLength(1);
  });

  it("honors Retry-After on a 503", async () => {
    const { client, retries } = await setUp(
      scripted([{ status: 503, headers: { "retry-after": "7" }, body: { message: "busy" } }]),
    );
    await client.get("/x");
    expect(retries()[0]?.delayMs).toBe(7000);
  });

  it("reports other 4xx at once", async () => {
    const { client, retries } = await setUp(() => ({
      status: 422,
      body: { message: "Validation Failed", errors: ["bad"] },
    }));
    await expect(client.request("PATCH", "/repos/acme/api/hooks/1", { body: {} })).rejects.toThrow(
      "PATCH /repos/acme/api/hooks/1 → 422 Validation Failed: bad",
    );
    expect(retries()).toEqual([]);
    expect(service?.received).toHaveLength(1);
  });

  it("counts a DELETE that answers 404 after a retried failure as done", async () => {
    const { client } = await setUp(
      scripted([bad(502)], { status: 404, body: { message: "404 Not found" } }),
    );
    const response = await client.request("DELETE", "/api/v4/projects/1/boards/2");
    expect(response).toMatchObject({ status: 204, data: undefined });
    expect(service?.received).toHaveLength(2);
  });

  it("reports a DELETE that answers 404 at once", async () => {
    const { client } = await setUp(() => ({ status: 404, body: { message: "404 Not found" } }));
    await expect(client.request("DELETE", "/api/v4/projects/1/boards/9")).rejects.toThrow(
      "DELETE /api/v4/projects/1/boards/9 → 404 Not found",
    );
  });

  it("never repeats a POST that may have reached the service", async () => {
    const { client, retries } = await setUp(scripted([bad(502)]));
    await expect(client.request("POST", "/repos/acme/api/hooks", { body: {} })).rejects.toThrow(
      "POST /repos/acme/api/hooks → 502 trouble",
    );
    expect(retries()).toEqual([]);
  });

  it("repeats a POST whose connection was refused", async () => {
    const clock = new FakeClock();
    const probe = await FakeService.start(() => ({}), clock);
    const url = probe.url;
    await probe.close();
    const events: ClientEvent[] = [];
    const client = new ForgeClient({
      baseUrl: url,
      kind: "repository",
      clock,
      retries: { max: 2, baseMs: 10, capMs: 100 },
      onEvent: (e) => events.push(e),
    });
    await expect(client.request("POST", "/repos/acme/api/hooks", { body: {} })).rejects.toThrow(
      "POST /repos/acme/api/hooks → connection refused (ECONNREFUSED) (gave up after 3 attempts)",
    );
    expect(events.filter((e) => e.type === "retry")).toHaveLength(2);
  });
});
