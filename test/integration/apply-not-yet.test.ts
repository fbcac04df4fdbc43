import { afterEach, describe, expect, it } from "vitest";
import { type Change, makePlan, newChange } from "../../src/core/plan.js";
import { Secret } from "../../src/core/secret.js";
import { applyPlan } from "../../src/engine/apply.js";
import { type Clock, ForgeClient } from "../../src/forge/client.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { call, sandbox } from "../helpers/sandbox.js";

/**
 * A request's `retryWhile` (src/engine/apply.ts) on a clock the test drives: apply sends a
 * protection naming a member added a moment ago again while GitLab answers that the user is not a
 * member, waiting on the client's clock, and gives up once its bound would be passed — with
 * GitLab's answer as the failure. No real time passes: the sandbox's member delay runs on the same
 * clock.
 */

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

/** Virtual time: a sleep moves it on at once. */
function virtualClock(): Clock & { slept: number[] } {
  let now = Date.parse("2026-12-01T00:00:00Z");
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

async function protectionNamingNewMember(delayMs: number) {
  const clock = virtualClock();
  const patches: unknown[] = [];
  world = await sandbox({
    now: clock.now,
    gitlabMemberDelayMs: delayMs,
    onRequest: (request) => {
      if (request.method === "PATCH") patches.push(request.body);
    },
  });
  const added = await call(world, "POST", "/api/v4/projects/1/members", {
    body: { user_id: 5, access_level: 30 },
  });
  expect(added.status).toBe(201);
  const client = new ForgeClient({
    baseUrl: world.url,
    kind: "planning",
    token: new Secret("sandbox-admin", "sandbox"),
    writeIntervalMs: 0,
    clock,
  });
  const change: Change = {
    ...newChange("gitlab", "acme/api", "protected_branches", "main"),
    action: "update",
    requests: [
      {
        method: "PATCH",
        path: "/api/v4/projects/acme%2Fapi/protected_branches/main",
        body: { allowed_to_merge: [{ user_id: 5 }] },
        retryWhile: {
          status: 422,
          message: "user is not a member of the project",
          withinMs: 30_000,
        },
      },
    ],
  };
  const result = await applyPlan({
    plan: makePlan([change]),
    clients: new Map([["gitlab", client]]),
    allowDelete: false,
    secrets: new Map(),
    env: {},
  });
  return { outcome: result.outcomes[0]!, slept: clock.slept, patches };
}

describe("a request that may be answered 'not yet'", () => {
  it("is sent again, waits doubling on the client's clock, until GitLab takes it", async () => {
    const { outcome, slept, patches } = await protectionNamingNewMember(1_000);
    expect(outcome.outcome).toBe("applied");
    // 100 + 200 + 400 + 800 ms: the member counts after 1 s of the sandbox's (the same) clock.
    expect(slept).toEqual([100, 200, 400, 800]);
    expect(patches).toHaveLength(5);
  });

  it("gives up once the bound would be passed, with GitLab's answer as the failure", async () => {
    const { outcome, slept } = await protectionNamingNewMember(120_000);
    expect(outcome.outcome).toBe("failed");
    expect(outcome.status).toBe(422);
    expect(outcome.message).toContain("user is not a member of the project");
    expect(slept.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(30_000);
    expect(Math.max(...slept)).toBe(2_000);
  });
});
