import { afterEach, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { generatedProtectionsConfig, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
});

const protections = generatedProtectionsConfig();

it("applies 60 changes through a 20% fault rate, each once, and re-plans as no change", async () => {
  // Seed 29 mixes 502s, 503s and secondary-limit 403s; the first two are retried, the last waited out.
  world = await sandbox({ generate: 60, failRate: 0.2, faultSeed: 29 });
  const at = ["--sandbox-url", world.url];
  const applied = await runInProcess(["apply", "-c", protections, ...at, "--auto-approve"]);
  expect(applied.code).toBe(0);
  expect(applied.stdout).toContain("Apply: 60 applied, 0 failed, 0 held, 0 skipped.");
  expect(applied.stdout).toContain("Verified");
  const stats = world.stats();
  expect(stats.server_errors_injected).toBeGreaterThan(10);
  expect(stats.secondary_limited_responses).toBeGreaterThan(0);
  // Every change went through exactly once: a repeated success would count as another mutation.
  expect(stats.mutations_applied).toBe(60);
  expect(stats.requests_by_method.PUT).toBeGreaterThan(60);

  const again = await runInProcess(["plan", "-c", protections, ...at, "--format", "json"]);
  expect(again.code).toBe(0);
  const plan = JSON.parse(again.stdout) as Plan;
  expect(plan.summary).toMatchObject({ create: 0, update: 0, delete: 0, "no-op": 60 });
  expect(world.stats().mutations_applied).toBe(60);
});
