import { afterEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { generatedProtectionsConfig, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
});

const protections = generatedProtectionsConfig();

describe("apply within a small rate limit", () => {
  it("paces 150+ requests through 40 a second without one rate-limited answer", async () => {
    world = await sandbox({ generate: 50, rateLimits: { core: 40 }, rateWindowSeconds: 1 });
    const applied = await runInProcess([
      "apply",
      "-c",
      protections,
      "--sandbox-url",
      world.url,
      "--auto-approve",
      // A request per protection, so the plans alone run through the small budget.
      "--reads",
      "rest",
    ]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("Apply: 50 applied, 0 failed, 0 held, 0 skipped.");
    const stats = world.stats();
    expect(stats.requests_total).toBeGreaterThanOrEqual(150);
    expect(stats.rate_limited_responses).toBe(0);
    // The budget runs out several times: every wait for a reset is announced, nothing else is said.
    const lines = applied.stderr.split("\n").filter(Boolean);
    expect(
      lines.some((line) => line.startsWith("forgeplan: waiting for rate-limit reset (core)")),
    ).toBe(true);
    for (const line of lines) {
      expect(line).toMatch(
        /^forgeplan: (reading live state|applying|verifying): |^forgeplan: waiting for rate-limit reset \(core\) until \d\d:\d\d:\d\d UTC$/,
      );
    }
  });
});

describe("an apply interrupted while it verifies", () => {
  it("says the verification was cut short, never that the re-plan found changes", async () => {
    // Every write has landed; the signal comes with the first read of the verifying re-plan.
    const controller = new AbortController();
    let writes = 0;
    world = await sandbox({
      generate: 3,
      latencyMs: 20,
      onRequest: (request) => {
        if (request.method !== "GET") writes += 1;
        else if (writes === 3) controller.abort();
      },
    });
    const argv = ["apply", "-c", protections, "--sandbox-url", world.url, "--auto-approve"];
    const { code, stdout, stderr } = await runInProcess(argv, { signal: controller.signal });
    expect(code).toBe(130);
    expect(stdout).toContain("Apply: 3 applied, 0 failed, 0 held, 0 skipped.");
    expect(stdout).toContain("Not verified: no re-plan was made.");
    expect(stdout).not.toContain("could not be planned");
    expect(stderr).toBe(
      "forgeplan: apply interrupted while verifying. 3 applied, 0 failed; " +
        "plan again to check that live state matches\n",
    );
  });
});

describe("--max-wait", () => {
  it("stops cleanly when a wait would be longer, and a re-run applies exactly the rest", async () => {
    // 50 points a minute on one endpoint and 5 per write: the eleventh PUT is told to come back in
    // about a minute. The sandbox's clock is then moved on, as if the user came back later.
    let offset = 0;
    world = await sandbox({
      generate: 15,
      secondaryPointsPerMinute: 50,
      now: () => Date.now() + offset,
    });
    const argv = ["apply", "-c", protections, "--sandbox-url", world.url, "--auto-approve"];
    const first = await runInProcess([...argv, "--max-wait", "5s"]);
    expect(first.code).toBe(1);
    expect(first.stdout).toContain("Apply: 10 applied, 0 failed, 0 held, 5 skipped.");
    expect(first.stdout).toContain("Not verified: no re-plan was made.");
    expect(
      first.stdout.match(
        /not attempted: secondary rate limit on \/repos\/\{owner\}\/\{repo\}\/branches\/\{branch\}\/protection: PUT /g,
      ),
    ).toHaveLength(5);
    expect(first.stderr).toMatch(
      /^forgeplan: apply stopped: .*longer than the maximum wait of 5 s\. 10 applied, 0 failed, 5 not attempted; re-run the same command after \d\d:\d\d:\d\d UTC to apply the rest/m,
    );
    expect(world.stats().mutations_applied).toBe(10);

    offset += 61_000;
    const second = await runInProcess(argv);
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("Plan: 5 to create");
    expect(second.stdout).toContain("Apply: 5 applied, 0 failed, 0 held, 0 skipped.");
    expect(world.stats().mutations_applied).toBe(15);
  });

  it("refuses a duration without a unit", async () => {
    const result = await runInProcess([
      "apply",
      "-c",
      protections,
      "--sandbox",
      "--max-wait",
      "15",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "forgeplan: apply: --max-wait expects a duration such as 90s, 15m or 1h30m, got '15'\n",
    );
  });
});

/** The service's count of applied writes once it has not changed for a while. */
async function quietMutations(running: RunningSandbox): Promise<number> {
  let last = running.stats().mutations_applied;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = running.stats().mutations_applied;
    if (now === last) return now;
    last = now;
  }
}

describe("an interrupted apply", () => {
  it("says where it stopped, and a re-run applies exactly the rest", async () => {
    world = await sandbox({ generate: 10, latencyMs: 10 });
    const argv = ["apply", "-c", protections, "--sandbox-url", world.url, "--auto-approve"];
    const controller = new AbortController();
    const { code, stdout, stderr } = await runInProcess([...argv, "--write-interval", "100"], {
      signal: controller.signal,
      // The plan is printed just before the first write: stop the run a few writes in.
      onStdout: (text) => {
        if (text.includes("Plan: 10 to create")) setTimeout(() => controller.abort(), 350);
      },
    });
    // Interrupted, as shells report a process stopped by SIGINT: CI can tell it from a failure.
    expect(code).toBe(130);
    const summary = /Apply: (\d+) applied, 0 failed, 0 held, (\d+) skipped\./.exec(stdout);
    const [applied, skipped] = [Number(summary?.[1]), Number(summary?.[2])];
    expect(applied).toBeGreaterThan(0);
    expect(applied + skipped).toBe(10);
    const hint =
      /^forgeplan: apply interrupted\. (\d+) applied, 0 failed, (\d+) not attempted(?:, (\d+) without an answer)?; re-run the same command to apply the rest/m.exec(
        stderr,
      );
    const unanswered = Number(hint?.[3] ?? 0);
    expect(Number(hint?.[1])).toBe(applied);
    expect(Number(hint?.[2]) + unanswered).toBe(skipped);
    // Requests under way when the run stopped may have landed (they may still be landing on a busy
    // machine: wait until the service is quiet); nothing else did.
    const done = await quietMutations(world);
    expect(done).toBeGreaterThanOrEqual(applied);
    expect(done).toBeLessThanOrEqual(applied + unanswered);

    const again = await runInProcess(argv);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Apply: ${10 - done} applied`);
    expect(world.stats().mutations_applied).toBe(10);
  });
});
