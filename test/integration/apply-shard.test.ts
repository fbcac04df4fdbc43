import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

describe("apply --shard K/N", () => {
  it("applies disjoint parts whose union leaves nothing to do", async () => {
    world = await sandbox({ generate: 8 });
    const config = configFile(`version: 1
repositories:
  - name: acme/repo-*
    branch_protection:
      main: { enforce_admins: true }
`);
    const at = ["-c", config, "--sandbox-url", world.url];
    const applied: string[][] = [];
    for (const shard of ["1/2", "2/2"]) {
      const result = await runInProcess([
        "apply",
        ...at,
        "--auto-approve",
        "--shard",
        shard,
        "--format",
        "json",
      ]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const { plan } = JSON.parse(result.stdout) as { plan: Plan };
      applied.push(plan.changes.filter((c) => c.action === "create").map((c) => c.scope));
    }
    const [first = [], second = []] = applied;
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    expect(first.filter((scope) => second.includes(scope))).toEqual([]);
    expect([...first, ...second].sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `acme/repo-000${i + 1}`),
    );
    const after = await runInProcess(["plan", ...at]);
    expect(after.stdout).toContain("No changes.");
    expect(after.code).toBe(0);
  });

  it("applies a saved shard plan against a fresh plan of the shard it records", async () => {
    world = await sandbox({ generate: 4 });
    const config = configFile(`version: 1
repositories:
  - name: acme/repo-*
    branch_protection:
      main: { enforce_admins: true }
`);
    const at = ["-c", config, "--sandbox-url", world.url];
    const out = join(mkdtempSync(join(tmpdir(), "forgeplan-shard-")), "shard.json");
    const planned = await runInProcess(["plan", ...at, "--shard", "1/2", "--out", out]);
    expect(planned.code).toBe(2);
    const saved = JSON.parse(readFileSync(out, "utf8")) as Plan;
    expect(saved.shard).toEqual({ index: 1, count: 2 });
    const result = await runInProcess(["apply", out, "--sandbox-url", world.url, "--auto-approve"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(world.stats().mutations_applied).toBe(
      saved.changes.filter((c) => c.action === "create").length,
    );
  });

  it("explains a malformed shard in one line", async () => {
    world = await sandbox();
    const result = await runInProcess([
      "apply",
      "-c",
      "examples/forgeplan.yaml",
      "--sandbox-url",
      world.url,
      "--shard",
      "3/2",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^forgeplan: apply: --shard .+\n$/);
  });
});
