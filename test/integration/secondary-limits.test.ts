import { afterEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

/** Every generated repository's protection of main and its hooks: two reads a repository. */
const protectionsAndHooks = () =>
  configFile(`version: 1
repositories:
  - name: acme/repo-*
    branch_protection:
      main: { enforce_admins: true }
    webhooks:
      hooks:
        - { url: https://ci.acme.example/hooks/forge, events: [push], content_type: json }
`);

describe("GitHub's secondary limits, one token shared", () => {
  it("two shards run at once stay within the requests in flight the token may have", async () => {
    // Each shard alone at the default concurrency (8) would fill the token's 8.
    world = await sandbox({ generate: 40, latencyMs: 100, maxConcurrentPerToken: 8 });
    // Over REST: a request per resource, what fills the requests in flight.
    const at = ["-c", protectionsAndHooks(), "--sandbox-url", world.url, "--reads", "rest"];
    const results = await Promise.all(
      ["1/2", "2/2"].map((shard) => runInProcess(["plan", ...at, "--shard", shard])),
    );
    for (const result of results) {
      expect(result.stderr).toBe("");
      expect(result.code).toBe(2);
    }
    expect(world.stats()).toMatchObject({ rate_limited_responses: 0 });
    expect(world.stats().requests_total).toBeGreaterThan(80);
  });

  it(
    "a plan of 30 repositories at the default concurrency keeps within a CPU-time limit of 20 s",
    { timeout: 150_000 },
    async () => {
      world = await sandbox({ generate: 30, latencyMs: 500, cpuLimitSeconds: 20 });
      const started = Date.now();
      const result = await runInProcess([
        "plan",
        "-c",
        protectionsAndHooks(),
        "--sandbox-url",
        world.url,
        "--cpu-limit",
        "20",
        // Over REST: 62 reads of half a second each.
        "--reads",
        "rest",
      ]);
      expect(result.code).toBe(2);
      expect(world.stats()).toMatchObject({ rate_limited_responses: 0 });
      // 62 answers of half a second each are over 30 s of response time: more than one minute's 20.
      expect(world.stats().requests_total).toBeGreaterThan(60);
      expect(result.stderr).toMatch(
        /^forgeplan: secondary rate limit on CPU time: waiting until \d\d:\d\d:\d\d UTC, keeping the response time of a minute's requests within the limit \(--cpu-limit\)$/m,
      );
      expect(Date.now() - started).toBeGreaterThan(60_000);
    },
  );
});
