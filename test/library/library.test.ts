import { afterEach, describe, expect, it } from "vitest";
import {
  apply,
  ConnectionError,
  plan,
  planFileText,
  PlanFileError,
  readPlanFile,
  renderPlan,
} from "../../src/index.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { repoRoot } from "../helpers/cli.js";
import { type FailingProxy, failingProxy } from "../helpers/failing-proxy.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox | undefined;
let proxy: FailingProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
  await world?.stop();
  world = undefined;
});

const demo = ["examples/forgeplan.yaml"];
const at = (running: RunningSandbox) => ({ cwd: repoRoot, env: {}, sandboxUrl: running.url });

describe("the library's one-call plan and apply", () => {
  it("plans, applies exactly that plan, verifies it, and then plans no change", async () => {
    world = await sandbox();
    const planned = await plan(demo, at(world));
    if (!planned.ok) throw new Error("the demo config is valid");
    expect(planned.hasChanges).toBe(true);
    expect(planned.plan.summary).toEqual({
      create: 1,
      update: 3,
      delete: 2,
      report: 3,
      "no-op": 5,
    });
    expect(planned.plan.config).toEqual(demo);
    expect(renderPlan(planned.plan, "text")).toContain("Plan: 1 to create, 3 to update");

    const applied = await apply(planned.plan, { ...at(world), allowDelete: true });
    if (applied.status !== "applied") throw new Error(`expected applied, got ${applied.status}`);
    expect(applied.succeeded).toBe(true);
    expect(applied.report.verified).toBe(true);
    expect(applied.report.outcomes.map((outcome) => outcome.outcome)).toEqual(
      Array(6).fill("applied"),
    );
    expect(world.stats().mutations_applied).toBe(6);

    const again = await plan(demo, at(world));
    expect(again.ok && again.hasChanges).toBe(false);
    expect(await apply(planned.plan, at(world))).toMatchObject({ status: "refused" });
  });

  it("refuses a plan whose live state moved, naming the change, and sends nothing", async () => {
    world = await sandbox();
    const planned = await plan(demo, at(world));
    if (!planned.ok) throw new Error("the demo config is valid");
    await call(world, "PATCH", "/repos/acme/api/hooks/1", { body: { active: false } });
    const before = world.stats().mutations_applied;
    const result = await apply(planned.plan, at(world));
    expect(result).toEqual({
      status: "refused",
      refusals: [
        {
          address: "github/acme/api/webhook/https://ci.acme.example/hooks/forge",
          reason: "the live state changed since the plan was made",
        },
      ],
    });
    expect(world.stats().mutations_applied).toBe(before);
  });

  it("applies a plan saved to a file and read back, and reports configuration errors as data", async () => {
    world = await sandbox();
    const planned = await plan(demo, at(world));
    if (!planned.ok) throw new Error("the demo config is valid");
    const read = readPlanFile(planFileText(planned.plan), "saved.json");
    expect(read).toEqual(planned.plan);
    const applied = await apply(read, { ...at(world), allowDelete: true });
    expect(applied).toMatchObject({ status: "applied", succeeded: true });
    // Without allowDelete a plan's deletes are skipped: planned and not applied, no success.
    world = await sandbox();
    const again = await plan(demo, at(world));
    if (!again.ok) throw new Error("the demo config is valid");
    expect(await apply(again.plan, at(world))).toMatchObject({
      status: "applied",
      succeeded: false,
    });
    expect(() => readPlanFile("{", "broken.json")).toThrow(PlanFileError);

    const broken = configFile("version: 1\nrepositories:\n  - name: acme/api\n    bogus: 1\n");
    const invalid = await plan([broken], at(world));
    expect(invalid.ok).toBe(false);
    expect(!invalid.ok && invalid.errors.map((error) => [error.line, error.path])).toEqual([
      [4, "repositories[0].bogus"],
    ]);
  });

  it("plans and applies only what targets match, when given addresses", async () => {
    world = await sandbox();
    const planned = await plan(demo, {
      ...at(world),
      targets: ["github/acme/web/branch_protection/*"],
    });
    if (!planned.ok) throw new Error("the demo config is valid");
    expect(planned.plan.targets).toEqual(["github/acme/web/branch_protection/*"]);
    expect(planned.plan.changes.map((change) => change.address)).toEqual([
      "github/acme/web/branch_protection/main",
    ]);
    const applied = await apply(planned.plan, at(world));
    expect(applied).toMatchObject({ status: "applied", succeeded: true });
    expect(world.stats().mutations_applied).toBe(1);
  });

  it("does not call a delete verified when the re-plan could not list where it lived", async () => {
    world = await sandbox();
    const hooks = "/repos/acme/api/hooks";
    // The plan's listing and apply's own go through; the verifying re-plan's is refused.
    proxy = await failingProxy(world.url, (method, path, seen) =>
      method === "GET" && path === hooks && seen === 3
        ? { status: 403, body: { message: "Must have admin rights to Repository." } }
        : undefined,
    );
    const config = configFile(
      "version: 1\nrepositories:\n  - name: acme/api\n    webhooks: { mode: authoritative, hooks: [] }\n",
    );
    const options = { cwd: repoRoot, env: {}, sandboxUrl: proxy.url };
    const planned = await plan([config], options);
    if (!planned.ok) throw new Error("the config is valid");
    const applied = await apply(planned.plan, { ...options, allowDelete: true });
    if (applied.status !== "applied") throw new Error(`expected applied, got ${applied.status}`);
    expect(applied.report.outcomes.map((outcome) => outcome.outcome)).toEqual([
      "applied",
      "applied",
    ]);
    expect(applied.succeeded).toBe(false);
    expect(applied.report.verified).toBe(false);
    const failure = `the re-plan could not plan it: GET ${hooks}?per_page=100 → 403: Must have admin rights to Repository.`;
    expect(applied.report.unchecked).toEqual([
      { address: "github/acme/api/webhook/https://ci.acme.example/hooks/forge", reason: failure },
      { address: "github/acme/api/webhook/https://chat.acme.example/notify", reason: failure },
    ]);
  });

  it("needs a token for a real target, and never shows a sensitive value", async () => {
    const secretConfig = configFile(
      [
        "version: 1",
        "repositories:",
        "  - name: acme/api",
        "    webhooks:",
        "      hooks:",
        '        - url: "https://collector.example/h?t=${COLLECTOR_TOKEN}"',
        "",
      ].join("\n"),
    );
    await expect(
      plan([secretConfig], { env: { COLLECTOR_TOKEN: "tok-abcdef-123" } }),
    ).rejects.toThrow(
      new ConnectionError(
        "target 'github' needs a token in the environment variable GITHUB_TOKEN",
        {
          missingToken: true,
        },
      ),
    );
    world = await sandbox();
    const planned = await plan([secretConfig], {
      env: { COLLECTOR_TOKEN: "tok-abcdef-123" },
      sandboxUrl: world.url,
    });
    if (!planned.ok) throw new Error("the config is valid");
    expect(JSON.stringify(planned.plan)).not.toContain("tok-abcdef-123");
    expect(planned.plan.changes[0]?.address).toBe(
      "github/acme/api/webhook/https://collector.example/h?t=(sensitive)",
    );
  });
});
