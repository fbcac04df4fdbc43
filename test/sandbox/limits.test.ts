import { describe, expect, it } from "vitest";
import { CATEGORIES } from "../../src/sandbox/index.js";
import { ADMIN, call, DEV, sandbox } from "./helpers.js";

function clock(start = Date.parse("2026-06-01T12:00:00Z")) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const rateHeaders = (headers: Headers) => ({
  limit: headers.get("x-ratelimit-limit"),
  remaining: headers.get("x-ratelimit-remaining"),
  used: headers.get("x-ratelimit-used"),
  resource: headers.get("x-ratelimit-resource"),
});

describe("primary rate limits", () => {
  it("sends X-RateLimit-* on every response, spending one per request", async () => {
    const time = clock();
    const sb = await sandbox({ now: time.now });
    const first = await call(sb, "GET", "/repos/acme/api");
    expect(rateHeaders(first.headers)).toEqual({
      limit: "5000",
      remaining: "4999",
      used: "1",
      resource: "core",
    });
    expect(first.headers.get("x-ratelimit-reset")).toBe(String(time.now() / 1000 + 3600));
    const error = await call(sb, "GET", "/repos/acme/nope");
    expect(error.status).toBe(404);
    expect(rateHeaders(error.headers).remaining).toBe("4998");
  });

  it("exhausts a configured limit with 403 and resets after the window", async () => {
    const time = clock();
    const sb = await sandbox({ now: time.now, rateLimits: { core: 3 }, rateWindowSeconds: 60 });
    for (let i = 0; i < 3; i++) expect((await call(sb, "GET", "/repos/acme/api")).status).toBe(200);
    const over = await call(sb, "GET", "/repos/acme/api");
    expect(over.status).toBe(403);
    expect(over.body.message).toBe("API rate limit exceeded for user ID 1.");
    expect(rateHeaders(over.headers)).toMatchObject({ remaining: "0", used: "3" });
    expect(Number(over.headers.get("x-ratelimit-reset"))).toBe(time.now() / 1000 + 60);
    const write = await call(sb, "DELETE", "/repos/acme/api/branches/main/protection");
    expect(write.status).toBe(403);
    expect((await call(sb, "GET", "/repos/acme/api/branches/main/protection")).status).toBe(403);

    const other = await call(sb, "GET", "/repos/acme/api", { token: DEV });
    expect(other.status).toBe(200);

    time.advance(60_000);
    const after = await call(sb, "GET", "/repos/acme/api/branches/main/protection");
    expect(after.status).toBe(200);
    expect(rateHeaders(after.headers).remaining).toBe("2");
    expect(sb.stats().rate_limited_responses).toBe(3);
  });

  it("gives anonymous callers 60 requests an hour", async () => {
    const sb = await sandbox();
    const { headers } = await call(sb, "GET", "/gists", { token: null });
    expect(rateHeaders(headers)).toMatchObject({ limit: "60", remaining: "59" });
  });
});

describe("GET /rate_limit", () => {
  it("reports every category, mirrors core in rate, and costs nothing", async () => {
    const time = clock();
    const sb = await sandbox({ now: time.now, rateLimits: { core: 40, search: 5 } });
    await call(sb, "GET", "/repos/acme/api");
    const { status, body, headers } = await call(sb, "GET", "/rate_limit");
    expect(status).toBe(200);
    expect(Object.keys(body.resources).sort()).toEqual([...CATEGORIES].sort());
    expect(body.resources.core).toEqual({
      limit: 40,
      remaining: 39,
      reset: time.now() / 1000 + 3600,
      used: 1,
    });
    expect(body.resources.search).toMatchObject({ limit: 5, remaining: 5 });
    expect(body.rate).toEqual(body.resources.core);
    expect(rateHeaders(headers)).toMatchObject({ limit: "40", remaining: "39", used: "1" });
    await call(sb, "GET", "/rate_limit");
    expect((await call(sb, "GET", "/rate_limit")).body.resources.core.used).toBe(1);
  });

  it("answers 304 to a matching If-None-Match while nothing changed", async () => {
    const sb = await sandbox();
    const first = await call(sb, "GET", "/rate_limit");
    const etag = first.headers.get("etag") ?? "";
    const same = await call(sb, "GET", "/rate_limit", { headers: { "If-None-Match": etag } });
    expect(same.status).toBe(304);
    await call(sb, "GET", "/repos/acme/api");
    const changed = await call(sb, "GET", "/rate_limit", { headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
  });
});

describe("conditional requests", () => {
  it("answers 304 without spending the budget, until the resource changes", async () => {
    const sb = await sandbox({ rateLimits: { core: 5 } });
    const path = "/repos/acme/api/branches/main/protection";
    const first = await call(sb, "GET", path);
    const etag = first.headers.get("etag") ?? "";
    for (let i = 0; i < 10; i++) {
      const cached = await call(sb, "GET", path, { headers: { "If-None-Match": `W/${etag}` } });
      expect(cached.status).toBe(304);
      expect(cached.headers.get("x-ratelimit-remaining")).toBe("4");
    }
    await call(sb, "PUT", path, {
      body: {
        required_status_checks: null,
        enforce_admins: true,
        required_pull_request_reviews: null,
        restrictions: null,
      },
    });
    const changed = await call(sb, "GET", path, { headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(sb.stats().not_modified_responses).toBe(10);
  });
});

describe("secondary rate limits", () => {
  it("refuses more concurrent requests per token than allowed, with Retry-After", async () => {
    const sb = await sandbox({ latencyMs: 150, maxConcurrentPerToken: 3 });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call(sb, "GET", "/repos/acme/api")),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 403, 403]);
    const refused = answers.find((answer) => answer.status === 403);
    expect(refused?.body.message).toContain("secondary rate limit");
    expect(refused?.headers.get("retry-after")).toBe("1");
    const other = await call(sb, "GET", "/repos/acme/api", { token: DEV });
    expect(other.status).toBe(200);
    expect(sb.stats().secondary_limited_responses).toBe(2);
  });

  it("limits a token's response time a minute when started with a CPU-time limit", async () => {
    const sb = await sandbox({ latencyMs: 260, cpuLimitSeconds: 1 });
    for (let i = 0; i < 4; i++) expect((await call(sb, "GET", "/repos/acme/api")).status).toBe(200);
    // 4 × 260 ms answered in the last minute: over the second allowed.
    const refused = await call(sb, "GET", "/repos/acme/api");
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("secondary rate limit");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await call(sb, "GET", "/repos/acme/api", { token: DEV })).status).toBe(200);
    expect(sb.stats()).toMatchObject({ secondary_limited_responses: 1, rate_limited_responses: 1 });
  });

  it("limits points per minute per endpoint: writes cost 5, reads 1", async () => {
    const time = clock();
    const sb = await sandbox({ now: time.now, secondaryPointsPerMinute: 12 });
    const path = "/repos/acme/api/invitations/1";
    expect((await call(sb, "DELETE", "/repos/acme/api/invitations/1")).status).toBe(204);
    expect((await call(sb, "DELETE", "/repos/acme/api/invitations/2")).status).toBe(204);
    const third = await call(sb, "DELETE", "/repos/acme/api/invitations/3");
    expect(third.status).toBe(403);
    expect(third.headers.get("retry-after")).toBe("60");
    for (let i = 0; i < 12; i++)
      expect((await call(sb, "GET", "/repos/acme/api")).status).toBe(200);
    expect((await call(sb, "GET", "/repos/acme/api")).status).toBe(403);
    time.advance(45_000);
    const wait = await call(sb, "DELETE", path);
    expect(wait.headers.get("retry-after")).toBe("15");
    time.advance(15_000);
    expect((await call(sb, "DELETE", "/repos/acme/api/invitations/3")).status).toBe(204);
    const { body } = await call(sb, "GET", "/repos/acme/api/invitations", { token: ADMIN });
    expect(body).toEqual([]);
  });
});
