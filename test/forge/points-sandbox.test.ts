import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { type ClientEvent, ForgeClient } from "../../src/forge/client.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { reportEvent } from "../../src/cli/session.js";
import { sandbox } from "../helpers/sandbox.js";
import { FakeClock } from "./fake-clock.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

function cliIO() {
  return {
    stdout: { write: () => {}, isTTY: false },
    stdinIsTTY: false,
    env: {},
    cwd: "/",
    signal: new AbortController().signal,
  };
}

const protection = {
  required_status_checks: null,
  enforce_admins: true,
  required_pull_request_reviews: null,
  restrictions: null,
};

describe("pacing by the per-endpoint point budget", () => {
  it("sends 20 PUTs (100 points) to one endpoint under 50 a minute without a secondary-limited answer", async () => {
    const clock = new FakeClock();
    world = await sandbox({ generate: 20, secondaryPointsPerMinute: 50, now: () => clock.now() });
    const events: ClientEvent[] = [];
    const client = new ForgeClient({
      baseUrl: world.url,
      kind: "repository",
      token: new Secret("sandbox-admin", "sandbox"),
      clock,
      writeIntervalMs: 0,
      // The fake clock jumps to the end of the wait as soon as a request sleeps, even while others
      // are still on their way to the sandbox, which would then count them in the next minute. One
      // at a time, nothing is in flight while the clock moves.
      concurrency: 1,
      pointsPerMinute: 50,
      onEvent: (event) => events.push(event),
    });
    const started = clock.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.request(
          "PUT",
          `/repos/acme/repo-${String(i + 1).padStart(4, "0")}/branches/main/protection`,
          { body: protection },
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(world.stats().secondary_limited_responses).toBe(0);
    const waits = events.filter((e) => e.type === "wait");
    expect(waits).toEqual([
      {
        type: "wait",
        reason: "secondary-limit",
        category: "/repos/{owner}/{repo}/branches/{branch}/protection",
        endpoint: "/repos/{owner}/{repo}/branches/{branch}/protection",
        until: started + 61_000,
      },
    ]);
    // Said the way a throttling answer's wait is: the endpoint first (test/hostile/messages.test.ts).
    const lines: string[] = [];
    const stderr = { write: (text: string) => void lines.push(text), isTTY: false };
    const io = { ...cliIO(), stderr };
    for (const wait of waits) reportEvent(io, wait);
    expect(lines).toEqual([
      expect.stringMatching(
        /^forgeplan: secondary rate limit on \/repos\/\{owner\}\/\{repo\}\/branches\/\{branch\}\/protection: waiting until \d\d:\d\d:\d\d UTC, pacing the endpoint to its points a minute \(--points-per-minute\)\n$/,
      ),
    ]);
    expect(clock.now() - started).toBeGreaterThanOrEqual(61_000);
    expect(client.stats().waitsMs).toBe(61_000);
  });

  it("refuses a wait for points longer than the maximum wait", async () => {
    const clock = new FakeClock();
    world = await sandbox({ generate: 20, secondaryPointsPerMinute: 50, now: () => clock.now() });
    const client = new ForgeClient({
      baseUrl: world.url,
      kind: "repository",
      token: new Secret("sandbox-admin", "sandbox"),
      clock,
      writeIntervalMs: 0,
      pointsPerMinute: 10,
      maxWaitMs: 5000,
    });
    const put = () =>
      client.request("PUT", "/repos/acme/repo-0001/branches/main/protection", {
        body: protection,
      });
    await put();
    await put();
    await expect(put()).rejects.toThrow(
      /^secondary rate limit on \/repos\/\{owner\}\/\{repo\}\/branches\/\{branch\}\/protection: its points a minute are spent until .*Z, .* from now, longer than the maximum wait of 5 s$/,
    );
    expect(world.stats().secondary_limited_responses).toBe(0);
  });
});
