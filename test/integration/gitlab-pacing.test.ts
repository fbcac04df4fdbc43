import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DesiredState } from "../../src/config/model.js";
import type { Plan } from "../../src/core/plan.js";
import { budgetLine } from "../../src/core/budget.js";
import { planFileText } from "../../src/core/plan-file.js";
import { readPlanFile } from "../../src/library/plan-file.js";
import { planMarkdown } from "../../src/render/markdown.js";
import { planText } from "../../src/render/text.js";
import { loadDesiredState } from "../../src/engine/desired.js";
import { planPart } from "../../src/engine/plan-part.js";
import type { Shard } from "../../src/engine/shard.js";
import type { ClientEvent } from "../../src/forge/client.js";
import { connect } from "../../src/library/connect.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { GatedClock } from "../helpers/gated-clock.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

/**
 * Plans against a sandbox that enforces GitLab.com's per-endpoint limits, on virtual time: the
 * target says it has GitLab.com's limits (`limits: gitlab.com`), so the client paces them.
 */

const PROJECTS = 420;
const PROJECT_READS = "GET /api/v4/projects/:id";

const clock = new GatedClock();
let world: RunningSandbox;
let state: DesiredState;
/** Nine of the projects: a run that spends little of any limit. */
let few: DesiredState;

function loaded(yaml: string): DesiredState {
  const result = loadDesiredState([configFile(yaml)], { cwd: "/", env: {} });
  if (!result.ok) throw new Error(result.errors.map((error) => error.message).join("\n"));
  return result.state;
}

const config = (glob: string) => `version: 1
targets:
  gl: { type: gitlab, limits: gitlab.com }
projects:
  - project: acme/${glob}
    settings:
      request_access_enabled: false
`;

beforeAll(async () => {
  world = await sandbox({
    gitlabComLimits: true,
    generateProjects: PROJECTS,
    now: () => clock.now(),
  });
  state = loaded(config("project-*"));
  few = loaded(config("project-0000*"));
});

afterAll(() => world.stop());

// No window of one test is still open in the next (GitLab.com's longest is 10 minutes).
beforeEach(() => clock.advance(20 * 60_000));

async function planned(
  events: ClientEvent[],
  options: {
    shard?: Shard;
    shareOfBudget?: number;
    desired?: DesiredState;
    maxWaitMs?: number;
  } = {},
): Promise<Plan> {
  const desired = options.desired ?? state;
  const { readers } = await connect(
    desired,
    {
      sandboxUrl: world.url,
      clock,
      ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
      // One request at a time: time moves only while every run is asleep (GatedClock).
      concurrency: 1,
      onEvent: (event) => events.push(event),
      ...(options.shareOfBudget !== undefined ? { shareOfBudget: options.shareOfBudget } : {}),
    },
    { cwd: "/" },
  );
  try {
    // Over REST: each project's own GET /projects/:id, the endpoint of 400 a minute (bulk reads
    // answer it from the group's listing instead).
    return await planPart(desired, readers, options.shard, { reads: "rest" });
  } finally {
    clock.leave();
  }
}

const limited = () => world.stats().rate_limited_responses;
const waitsOn = (events: ClientEvent[], category: string) =>
  events.filter((event) => event.type === "wait" && event.category === category);

describe("GitLab.com's limits, paced by the client", () => {
  it("never exceeds GET /projects/:id's 400 a minute: the plan waits for the window instead of a 429", async () => {
    const before = limited();
    const started = clock.now();
    const events: ClientEvent[] = [];
    const plan = await planned(events);
    expect(limited() - before).toBe(0);
    expect(plan.changes.filter((change) => change.error !== undefined)).toEqual([]);
    expect(plan.changes.filter((change) => change.action === "update")).toHaveLength(PROJECTS);
    const gitlab = plan.budget?.gitlab;
    expect(gitlab?.limits).toBe("gitlab.com");
    expect(gitlab?.requests_by_endpoint_group[PROJECT_READS]).toBeGreaterThan(400);
    expect(gitlab?.endpoint_limits[PROJECT_READS]).toEqual({ limit: 400, window_seconds: 60 });
    // More than 400 project reads take more than a minute: the client waited it out.
    expect(waitsOn(events, PROJECT_READS).length).toBeGreaterThan(0);
    expect(clock.now() - started).toBeGreaterThanOrEqual(60_000);
    // The budget line names the groups and the least time at GitLab.com's limits, and the JSON
    // plan keeps them.
    const line = budgetLine(plan.budget!);
    expect(line).toMatch(/^Reads on GitLab: [\d,]+ REST requests \(GET \/api\/v4\/projects\/:id /);
    expect(line).toContain("· ≥ 2 min at GitLab.com's 400 GET /api/v4/projects/:id requests/min");
    expect(planText(plan, {})).toContain(line);
    expect(planMarkdown(plan, {})).toContain(`_${line.replace(/\*/g, "\\*")}_`);
    const saved = JSON.parse(planFileText(plan)) as { budget: Record<string, unknown> };
    expect(saved.budget.least_time).toMatchObject({
      limit: "GitLab.com's 400 GET /api/v4/projects/:id requests/min",
    });
    expect(readPlanFile(planFileText(plan)).budget?.gitlab).toEqual(gitlab);
  });

  it("waits out a 429 without rate-limit headers for its Retry-After, and the plan completes", async () => {
    // Another client of the same user spends the minute's project reads first.
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => call(world, "GET", "/api/v4/projects/1")),
      );
      if (answers.some((answer) => answer.status !== 200)) throw new Error("not spent");
    }
    const before = limited();
    const events: ClientEvent[] = [];
    const plan = await planned(events, { desired: few });
    // The 429, and at most the request that took the free slot as its answer was being read.
    expect(limited() - before).toBeGreaterThanOrEqual(1);
    expect(limited() - before).toBeLessThanOrEqual(2);
    const throttled = events.find((event) => event.type === "wait" && event.after !== undefined);
    expect(throttled).toMatchObject({
      type: "wait",
      reason: "retry-after",
      after: { status: 429, source: "retry-after", waitMs: 60_000 },
    });
    expect(plan.changes.filter((change) => change.error !== undefined)).toEqual([]);
    expect(plan.changes.filter((change) => change.action === "update")).toHaveLength(9);
  });

  it("stops before reading a run that cannot fit a minute of its share when it may not wait a minute", async () => {
    const sent = world.stats().requests_total;
    // A hundredth of the 2,000 a minute is 20 requests; the run needs one a project at least.
    await expect(planned([], { shareOfBudget: 0.01, maxWaitMs: 30_000 })).rejects.toThrow(
      /^not started: target 'gl' needs at least [\d,]+ requests, more than the 20 of GitLab\.com's 2,000 API requests a minute .* nothing was read/,
    );
    // Only the group's listing was read, to know the projects.
    const listed = world.stats().requests_total - sent;
    expect(listed).toBeLessThanOrEqual(Math.ceil(PROJECTS / 100));
  });

  it("lets two shards of one token, each with half of every limit, draw no 429 together", async () => {
    const before = limited();
    const events: ClientEvent[][] = [[], []];
    clock.join(2);
    const plans = await Promise.all(
      [1, 2].map((index) =>
        planned(events[index - 1]!, { shard: { index, count: 2 }, shareOfBudget: 0.5 }),
      ),
    );
    expect(limited() - before).toBe(0);
    const updates = plans.map(
      (plan) => plan.changes.filter((change) => change.action === "update").length,
    );
    expect(updates[0]! + updates[1]!).toBe(PROJECTS);
    // A shard that read more than its 200 a minute waited for its half of the window.
    const reads = plans.map(
      (plan) => plan.budget?.gitlab?.requests_by_endpoint_group[PROJECT_READS] ?? 0,
    );
    expect(reads[0]! + reads[1]!).toBe(PROJECTS);
    expect(reads.some((count) => count > 200)).toBe(true);
    for (const [index, count] of reads.entries()) {
      expect(waitsOn(events[index]!, PROJECT_READS).length > 0).toBe(count > 200);
    }
  });
});
