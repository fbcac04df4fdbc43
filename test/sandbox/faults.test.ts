import { describe, expect, it } from "vitest";
import { call, sandbox } from "./helpers.js";

async function statuses(seed: number, count: number): Promise<number[]> {
  const sb = await sandbox({ failRate: 0.5, faultSeed: seed });
  const result: number[] = [];
  for (let i = 0; i < count; i++) result.push((await call(sb, "GET", "/repos/acme/api")).status);
  return result;
}

describe("fault injection", () => {
  it("injects 502, 503 and secondary-limit 403s reproducibly from the fault seed", async () => {
    const first = await statuses(7, 40);
    expect(await statuses(7, 40)).toEqual(first);
    expect(await statuses(8, 40)).not.toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 502, 503, 403]));
    const failed = first.filter((status) => status !== 200).length;
    expect(failed).toBeGreaterThan(8);
    expect(failed).toBeLessThan(32);
  });

  it("answers injected secondary limits with Retry-After: 1 and counts every fault", async () => {
    const sb = await sandbox({ failRate: 1, faultSeed: 3 });
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await call(sb, "GET", "/rate_limit"));
    const limited = answers.filter((answer) => answer.status === 403);
    expect(limited.length).toBeGreaterThan(0);
    for (const answer of limited) {
      expect(answer.headers.get("retry-after")).toBe("1");
      expect(answer.body.message).toContain("secondary rate limit");
    }
    const stats = sb.stats();
    expect(stats.server_errors_injected + stats.secondary_limited_responses).toBe(30);
    expect(stats.rate_limited_responses).toBe(limited.length);
  });

  it("changes nothing and spends nothing on a faulted request", async () => {
    // Seed 9 faults the first two requests (both as secondary limits), then serves the third.
    const sb = await sandbox({ failRate: 0.5, faultSeed: 9 });
    for (let i = 0; i < 2; i++) {
      const answer = await call(sb, "DELETE", "/repos/acme/api/hooks/2");
      expect(answer.status).toBe(403);
      expect(answer.headers.get("x-ratelimit-remaining")).toBe("5000");
    }
    const hooks = await call(sb, "GET", "/repos/acme/api/hooks");
    expect(hooks.status).toBe(200);
    expect(hooks.body.map((hook: { id: number }) => hook.id)).toEqual([1, 2]);
    expect(sb.stats()).toMatchObject({ mutations_applied: 0, secondary_limited_responses: 2 });
  });

  it("delays answers by the configured latency", async () => {
    const sb = await sandbox({ latencyMs: 120 });
    const started = performance.now();
    await call(sb, "GET", "/repos/acme/api");
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });
});
