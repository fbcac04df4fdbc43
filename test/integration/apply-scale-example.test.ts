import { afterEach, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
});

const scale = "examples/scale.yaml";

it("examples/scale.yaml validates, plans every acme repository of a generated world and converges", async () => {
  const valid = await runInProcess(["validate", "-c", scale]);
  expect(valid.code).toBe(0);

  world = await sandbox({ generate: 3 });
  const at = ["--sandbox-url", world.url];
  const planned = await runInProcess(["plan", "-c", scale, ...at, "--format", "json"]);
  expect(planned.stderr).toBe("");
  expect(planned.code).toBe(2);
  const plan = JSON.parse(planned.stdout) as Plan;
  const byRepo = new Map<string, string[]>();
  for (const change of plan.changes) {
    byRepo.set(change.scope, [
      ...(byRepo.get(change.scope) ?? []),
      `${change.kind} ${change.action}`,
    ]);
  }
  const generated = ["branch_protection create", "webhook update", "webhook update"];
  expect(Object.fromEntries(byRepo)).toEqual({
    "acme/api": ["branch_protection update", "webhook no-op", "webhook no-op"],
    "acme/web": ["branch_protection create", "webhook create", "webhook create"],
    "acme/repo-0001": generated,
    "acme/repo-0002": generated,
    "acme/repo-0003": generated,
  });

  const applied = await runInProcess(["apply", "-c", scale, ...at, "--auto-approve"]);
  expect(applied.code).toBe(0);
  expect(applied.stdout).toContain("Apply: 13 applied, 0 failed, 0 held, 0 skipped.");
  expect((await runInProcess(["plan", "-c", scale, ...at])).code).toBe(0);
});
