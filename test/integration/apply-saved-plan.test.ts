import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makePlan, type Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox;
let out: string;
beforeEach(async () => {
  world = await sandbox();
  out = join(dirname(configFile("")), "plan.json");
});
afterEach(async () => {
  await world.stop();
});

const demo = "examples/forgeplan.yaml";
const at = () => ["--sandbox-url", world.url];

async function savePlan(config = demo): Promise<Plan> {
  const planned = await runInProcess(["plan", "-c", config, ...at(), "--out", out]);
  expect(planned.code).toBe(2);
  return JSON.parse(readFileSync(out, "utf8")) as Plan;
}

describe("apply PLAN.json", () => {
  it("records the configuration it was made from and applies exactly the saved requests", async () => {
    const saved = await savePlan();
    expect(saved.config).toEqual([demo]);

    const before = world.stats().requests_by_method;
    const applied = await runInProcess(["apply", out, ...at(), "--auto-approve", "--allow-delete"]);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("Apply: 6 applied, 0 failed, 0 held, 0 skipped.");
    const after = world.stats().requests_by_method;
    const savedWrites: Record<string, number> = {};
    for (const request of saved.changes.flatMap((c) => c.requests)) {
      savedWrites[request.method] = (savedWrites[request.method] ?? 0) + 1;
    }
    expect(savedWrites).toEqual({ PUT: 2, PATCH: 2, DELETE: 2 });
    for (const method of ["PUT", "PATCH", "POST", "DELETE"]) {
      expect((after[method] ?? 0) - (before[method] ?? 0)).toBe(savedWrites[method] ?? 0);
    }
    expect(world.stats().mutations_applied).toBe(6);
    const again = await runInProcess(["plan", "-c", demo, ...at()]);
    expect(again.code).toBe(0);
  });

  it("gates the saved deletes behind --allow-delete", async () => {
    await savePlan();
    const applied = await runInProcess(["apply", out, ...at(), "--auto-approve"]);
    // Planned deletes not applied: exit 1, as for everything planned and not applied.
    expect(applied.code).toBe(1);
    expect(applied.stderr).toBe(
      "forgeplan: apply: 2 changes skipped: deletes need --allow-delete\n",
    );
    expect(applied.stdout).toContain("Apply: 4 applied, 0 failed, 0 held, 2 skipped.");
    expect(applied.stdout).toContain("deletes need --allow-delete");
    const boards = await call(world, "GET", "/api/v4/projects/1/boards");
    expect((boards.body as Array<{ id: number }>).map((b) => b.id)).toEqual([1, 2]);
  });

  it("refuses, naming it, a change whose resource changed after the plan, and applies nothing", async () => {
    await savePlan();
    const changed = await call(world, "PUT", "/repos/acme/api/branches/main/protection", {
      body: {
        required_status_checks: null,
        enforce_admins: true,
        required_pull_request_reviews: null,
        restrictions: null,
      },
    });
    expect(changed.status).toBe(200);
    const before = world.stats().mutations_applied;

    const applied = await runInProcess(["apply", out, ...at(), "--auto-approve", "--allow-delete"]);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toBe("");
    expect(applied.stderr).toBe(
      "forgeplan: apply: refused github/acme/api/branch_protection/main: the live state changed since the plan was made\n" +
        `forgeplan: apply: ${out} no longer matches what it would do now: 1 change refused; nothing was applied (make a new plan)\n`,
    );
    expect(world.stats().mutations_applied).toBe(before);
  });

  it("refuses a saved plan when a fresh plan has work the saved one lacks", async () => {
    await savePlan();
    // release must stay unprotected; protecting it after the plan was made creates a delete.
    await call(world, "PUT", "/repos/acme/api/branches/release/protection", {
      body: {
        required_status_checks: null,
        enforce_admins: false,
        required_pull_request_reviews: null,
        restrictions: null,
      },
    });
    const applied = await runInProcess(["apply", out, ...at(), "--auto-approve"]);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain(
      "forgeplan: apply: refused github/acme/api/branch_protection/release: a fresh plan has a delete here that the saved plan does not",
    );
    expect(world.stats().mutations_applied).toBe(1);
  });

  it("refuses a saved request that differs from what a fresh plan would send", async () => {
    const saved = await savePlan();
    const change = saved.changes.find(
      (c) => c.address === "github/acme/web/branch_protection/main",
    );
    const request = change?.requests[0] as { body: { enforce_admins: boolean } };
    request.body.enforce_admins = false;
    writeFileSync(out, JSON.stringify(saved));
    const applied = await runInProcess(["apply", out, ...at(), "--auto-approve"]);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain(
      "refused github/acme/web/branch_protection/main: a fresh plan would send different requests",
    );
    expect(world.stats().mutations_applied).toBe(0);
  });

  it("uses -c over the recorded configuration", async () => {
    await savePlan();
    const other = configFile("version: 1\n");
    const applied = await runInProcess(["apply", out, "-c", other, ...at(), "--auto-approve"]);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain("it is no longer in the plan (the configuration changed)");
  });
});

describe("a saved plan that cannot be used", () => {
  const apply = (file: string) => runInProcess(["apply", file, ...at(), "--auto-approve"]);

  it("says in one line that a file is not valid JSON", async () => {
    writeFileSync(out, "{ not json");
    const result = await apply(out);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^forgeplan: apply: ${out} is not valid JSON: .+\\n$`),
    );
  });

  it("keeps V8's quote of a text with a newline whole, on one line", async () => {
    writeFileSync(out, "nope\nmore");
    const result = await apply(out);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `forgeplan: apply: ${out} is not valid JSON: Unexpected token 'o', "nope\\u000amore" is not valid JSON\n`,
    );
  });

  it("says in one line that the format version is not one it reads", async () => {
    writeFileSync(out, JSON.stringify({ format_version: 2, changes: [] }));
    const result = await apply(out);
    expect(result.stderr).toBe(
      `forgeplan: apply: ${out} has format_version 2; this forgeplan reads format_version 1\n`,
    );
  });

  it("names the first key that is wrong", async () => {
    writeFileSync(
      out,
      JSON.stringify({ format_version: 1, summary: {}, changes: [{ address: "x", kind: "nope" }] }),
    );
    const result = await apply(out);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^forgeplan: apply: .*plan\.json: changes\[0\]\.kind: .+\n$/);
  });

  it("asks for -c when the plan does not record its configuration", async () => {
    writeFileSync(out, JSON.stringify(makePlan([])));
    const result = await apply(out);
    expect(result.stderr).toBe(
      `forgeplan: apply: ${out} does not record the configuration it was made from; pass it with -c FILE\n`,
    );
  });

  it("refuses a plan whose summary was zeroed: it never says there is nothing to apply", async () => {
    const saved = await savePlan();
    const zeroed = { create: 0, update: 0, delete: 0, report: 0, "no-op": 0 };
    writeFileSync(out, JSON.stringify({ ...saved, summary: zeroed }));
    const result = await apply(out);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain("Nothing to apply");
    expect(result.stderr).toMatch(
      new RegExp(`^forgeplan: apply: ${out}: summary does not match its changes \\(create 0 ≠ 1, `),
    );
    expect(world.stats().mutations_applied).toBe(0);
  });

  it("refuses a plan that lists a change twice, so nothing is sent twice", async () => {
    const saved = await savePlan();
    const twice = [...saved.changes, saved.changes[0]!];
    writeFileSync(out, JSON.stringify({ ...makePlan(twice), config: saved.config }));
    const result = await apply(out);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `forgeplan: apply: ${out}: changes[${saved.changes.length}]: ${saved.changes[0]!.address} is listed twice; a plan holds each change once\n`,
    );
    expect(world.stats().mutations_applied).toBe(0);
  });

  it("says a missing file is missing", async () => {
    const result = await apply("nowhere/plan.json");
    expect(result.stderr).toBe("forgeplan: apply: nowhere/plan.json: no such file\n");
    expect(world.stats().requests_total).toBe(0);
  });
});
