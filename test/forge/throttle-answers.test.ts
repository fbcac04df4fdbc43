import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { type ClientEvent, ForgeClient, ForgeError } from "../../src/forge/client.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService, type Handler, type Reply } from "./fake-service.js";

/**
 * Which 403/429 answers are limits to wait out, and for how long, as GitHub's "Rate limits for the
 * REST API" ("Exceeding the rate limit") tells them apart: Retry-After, else the reset when
 * `x-ratelimit-remaining` is 0, else at least a minute.
 */

let service: FakeService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function setUp(handler: (clock: FakeClock) => Handler) {
  const clock = new FakeClock();
  service = await FakeService.start(handler(clock), clock);
  const events: ClientEvent[] = [];
  const client = new ForgeClient({
    baseUrl: service.url,
    kind: "repository",
    token: new Secret("t", "T"),
    clock,
    writeIntervalMs: 0,
    onEvent: (e) => events.push(e),
  });
  return { client, clock, events, service };
}

/** The first answer is `first`; every later one a 200 with a fresh window. */
function firstThen(first: (clock: FakeClock) => Reply): (clock: FakeClock) => Handler {
  return (clock) => {
    let calls = 0;
    return () => (++calls === 1 ? first(clock) : { body: { ok: true } });
  };
}

function spentWindow(clock: FakeClock, resetInSeconds: number): Record<string, string> {
  return {
    "x-ratelimit-limit": "5000",
    "x-ratelimit-remaining": "0",
    "x-ratelimit-used": "5000",
    "x-ratelimit-reset": String(Math.ceil(clock.now() / 1000) + resetInSeconds),
    "x-ratelimit-resource": "core",
  };
}

describe("a 403 that spent the window's last request", () => {
  it("is the refusal it says it is, not a limit to wait out", async () => {
    const { client, service } = await setUp(
      firstThen((clock) => ({
        status: 403,
        headers: {
          ...spentWindow(clock, 30 * 60),
          "x-accepted-github-permissions": "administration=write",
        },
        body: { message: "Resource not accessible by integration", documentation_url: "x" },
      })),
    );
    const error = await client.get("/repos/acme/api/branches/main/protection").catch((e) => e);
    expect(error).toBeInstanceOf(ForgeError);
    expect((error as ForgeError).message).toBe(
      "GET /repos/acme/api/branches/main/protection → 403 Resource not accessible by integration " +
        "(the token needs administration=write)",
    );
    expect(service.received).toHaveLength(1);
  });

  it("is still a primary limit when it says nothing of its own", async () => {
    const { client, clock, service } = await setUp(
      firstThen((clock) => ({ status: 403, headers: spentWindow(clock, 20) })),
    );
    const before = clock.now();
    expect(await client.get("/repos/acme/api")).toEqual({ ok: true });
    expect(service.received[1]?.at).toBeGreaterThanOrEqual(before + 20_000);
  });
});

describe("a secondary limit", () => {
  it("without Retry-After but with remaining 0 waits for the reset, not a minute", async () => {
    const { client, events, service } = await setUp(
      firstThen((clock) => ({
        status: 403,
        headers: spentWindow(clock, 10),
        body: { message: "You have exceeded a secondary rate limit." },
      })),
    );
    expect(await client.get("/repos/acme/api/hooks")).toEqual({ ok: true });
    const waited = (service.received[1]?.at ?? 0) - (service.received[0]?.at ?? 0);
    expect(waited).toBeGreaterThanOrEqual(10_000);
    expect(waited).toBeLessThan(60_000);
    expect(events.filter((e) => e.type === "wait")[0]).toMatchObject({
      reason: "rate-limit-reset",
    });
  });

  it("in GitHub's older abuse-detection wording is waited out like any other", async () => {
    const { client, events, service } = await setUp(
      firstThen(() => ({
        status: 403,
        body: {
          message:
            "You have triggered an abuse detection mechanism and have been temporarily blocked " +
            "from content creation. Please retry your request again later.",
        },
      })),
    );
    expect(
      await client.request("POST", "/repos/acme/api/hooks", { body: { name: "web" } }),
    ).toMatchObject({ status: 200 });
    expect((service.received[1]?.at ?? 0) - (service.received[0]?.at ?? 0)).toBe(60_000);
    expect(events.filter((e) => e.type === "wait")[0]).toMatchObject({
      reason: "secondary-limit",
    });
  });
});
