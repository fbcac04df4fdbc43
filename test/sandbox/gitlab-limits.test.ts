import { describe, expect, it } from "vitest";
import { call, sandbox } from "./helpers.js";

/**
 * GitLab answers its limits on /api/v4 with 429 and Retry-After, keeping the RateLimit-* headers
 * (gitlab-org/gitlab!206603, gitlab-org/gitlab#199738); GitHub's 403 wording is for repository paths.
 */
describe("limits on planning paths", () => {
  it("answer an exhausted window with 429 and the seconds to its reset", async () => {
    let now = Date.parse("2026-06-01T12:00:00Z");
    const sb = await sandbox({ now: () => now, rateLimits: { core: 2 }, rateWindowSeconds: 60 });
    for (let i = 0; i < 2; i++)
      expect((await call(sb, "GET", "/api/v4/groups/1")).status).toBe(200);
    now += 15_000;
    const over = await call(sb, "GET", "/api/v4/groups/1");
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      message: "This endpoint has been requested too many times. Try again later.",
    });
    expect(over.headers.get("retry-after")).toBe("45");
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    // Repository paths keep GitHub's answer.
    const github = await call(sb, "GET", "/repos/acme/api");
    expect(github.status).toBe(403);
    expect(github.body.message).toBe("API rate limit exceeded for user ID 1.");
  });

  it("spend no points per endpoint, GitHub's secondary limit, which GitLab does not have", async () => {
    const sb = await sandbox({ secondaryPointsPerMinute: 1 });
    for (let i = 0; i < 3; i++)
      expect((await call(sb, "GET", "/api/v4/groups/1")).status).toBe(200);
    const github = await call(sb, "GET", "/repos/acme/api");
    expect((await call(sb, "GET", "/repos/acme/api")).status).toBe(403);
    expect(github.status).toBe(200);
  });

  it("answer too many requests at once with 429 too", async () => {
    const sb = await sandbox({ maxConcurrentPerToken: 1, latencyMs: 200 });
    const [first, second] = await Promise.all([
      call(sb, "GET", "/api/v4/groups/1"),
      new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        call(sb, "GET", "/api/v4/groups/1"),
      ),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(second.body.message).not.toMatch(/secondary/);
  });
});
