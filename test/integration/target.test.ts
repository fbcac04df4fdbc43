import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

/** Protections and both hooks of every generated repository: four resources each. */
const config = () =>
  configFile(`version: 1
repositories:
  - name: acme/repo-*
    owner_type: organization
    branch_protection:
      main: { enforce_admins: true }
      dev: { enforce_admins: true }
    webhooks:
      hooks:
        - { url: "https://ci.acme.example/hooks/forge", events: [push, pull_request, release] }
`);

let world: RunningSandbox;
beforeEach(async () => {
  world = await sandbox({ generate: 12 });
});
afterEach(async () => {
  await world.stop();
});

const reads = () => world.stats().requests_by_method.GET ?? 0;

function planJson(stdout: string): Plan {
  return JSON.parse(stdout) as Plan;
}

describe("--target", () => {
  it("plans only what the patterns match, reading only what they reach", async () => {
    const path = configFile(readFileSync(config(), "utf8"));
    const whole = await runInProcess(["plan", "-c", path, "--sandbox-url", world.url]);
    expect(whole.code).toBe(2);
    const before = reads();
    const one = await runInProcess([
      "plan",
      "-c",
      path,
      "--sandbox-url",
      world.url,
      "--format",
      "json",
      "--target",
      "github/acme/repo-0003/*",
    ]);
    expect(one.code).toBe(2);
    const plan = planJson(one.stdout);
    expect(new Set(plan.changes.map((change) => change.scope))).toEqual(
      new Set(["acme/repo-0003"]),
    );
    expect(plan.changes.map((change) => change.kind).sort()).toEqual([
      "branch_protection",
      "branch_protection",
      "webhook",
    ]);
    expect(plan.targets).toEqual(["github/acme/repo-0003/*"]);
    // The rate limit, one page of acme's repositories, two protections and one hook list.
    expect(reads() - before).toBe(5);
  });

  it("narrows a kind to the resources it names: one branch everywhere reads no other branch", async () => {
    const paths: string[] = [];
    await world.stop();
    world = await sandbox({ generate: 12, onRequest: (request) => paths.push(request.path) });
    const result = await runInProcess([
      "plan",
      "-c",
      config(),
      "--sandbox-url",
      world.url,
      "--format",
      "json",
      "--target",
      "*/branch_protection/main",
    ]);
    const plan = planJson(result.stdout);
    expect(plan.changes).toHaveLength(12);
    expect(plan.changes.every((change) => change.address.endsWith("/branch_protection/main"))).toBe(
      true,
    );
    // One protection per repository, never dev's. (A star may span slashes, so a hook whose URL
    // ended in /branch_protection/main would match: hook lists are read, and their changes filtered.)
    const protections = paths.filter((path) => path.includes("/protection"));
    expect(protections).toHaveLength(12);
    expect(protections.every((path) => path.endsWith("/branches/main/protection"))).toBe(true);
    expect(result.stdout).not.toContain("/hooks");
  });

  it("applies what it targets, records its targets in a saved plan, and applies that plan", async () => {
    const path = config();
    const out = join(dirname(path), "plan.json");
    const at = ["--sandbox-url", world.url];
    const applied = await runInProcess([
      "apply",
      "-c",
      path,
      ...at,
      "--auto-approve",
      "--target",
      "github/acme/repo-0001/branch_protection/main",
    ]);
    expect(applied.code).toBe(0);
    expect(world.stats().mutations_applied).toBe(1);

    const saved = await runInProcess([
      "plan",
      "-c",
      path,
      ...at,
      "--out",
      out,
      "--target",
      "github/acme/repo-0002/*",
    ]);
    expect(saved.code).toBe(2);
    expect(saved.stdout).toContain("Only what --target github/acme/repo-0002/* matches was read");
    const refused = await runInProcess(["apply", out, ...at, "--auto-approve", "--target", "x/y"]);
    expect(refused.stderr).toBe(
      `forgeplan: apply: ${out} was planned with its own --target; give none\n`,
    );
    const replayed = await runInProcess(["apply", out, ...at, "--auto-approve"]);
    expect(replayed.stderr).toBe("");
    expect(replayed.code).toBe(0);
    // repo-0002: two protections and the hook.
    expect(world.stats().mutations_applied).toBe(1 + 3);
  });

  it("refuses what it cannot mean", async () => {
    const path = config();
    const at = ["--sandbox-url", world.url];
    const empty = await runInProcess(["plan", "-c", path, ...at, "--target", "main"]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^forgeplan: plan: --target expects an address such as/);
    const issue = await runInProcess([
      "drift",
      "-c",
      path,
      ...at,
      "--report-issue",
      "acme/api",
      "--target",
      "github/acme/*",
    ]);
    expect(issue.code).toBe(1);
    expect(issue.stderr).toMatch(/--report-issue needs the whole plan/);
  });
});
