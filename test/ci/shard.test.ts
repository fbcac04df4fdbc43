import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Change, makePlan, type Plan } from "../../src/core/plan.js";
import { mergePlans, PlanFileError } from "../../src/engine/merge.js";
import { parseShard, shardOf } from "../../src/engine/shard.js";
import { shardClientOptions } from "../../src/cli/sharding.js";
import { repoRoot, runInProcess } from "../helpers/cli.js";
import { SECRET_TOKEN, workspace, world } from "./helpers.js";

const env = { GITHUB_TOKEN: SECRET_TOKEN, GITLAB_TOKEN: SECRET_TOKEN };

/** The demo config plus a glob over the generated repositories, one of them refined by name. */
const config = readFileSync(join(repoRoot, "examples/forgeplan.yaml"), "utf8")
  .replace(/^version: 1$/m, "")
  .replace(
    "\nrepositories:\n",
    [
      "",
      "repositories:",
      "  - name: acme/repo-*",
      "    exclude: [acme/repo-0003]",
      "    branch_protection:",
      "      main: { enforce_admins: true }",
      "      dev: null",
      "  - name: acme/repo-0005",
      "    branch_protection:",
      "      main: { required_linear_history: true }",
      "",
    ].join("\n"),
  );

function byAddress(plan: Plan): Map<string, Change> {
  return new Map(plan.changes.map((change) => [change.address, change]));
}

describe("--shard K/N", () => {
  it("parses K/N and refuses anything else", () => {
    expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
    expect(parseShard(" 1 / 1 ")).toEqual({ index: 1, count: 1 });
    for (const bad of ["0/2", "3/2", "1/0", "1-2", "a/b", "1/2/3", ""]) {
      expect(() => parseShard(bad)).toThrow(/expects/);
    }
  });

  it("assigns keys the same way every time, spread over the shards, case-insensitively", () => {
    const counts = [0, 0, 0, 0];
    for (let index = 0; index < 2000; index++)
      counts[shardOf(`github/acme/repo-${index}`, 4) - 1]!++;
    for (const count of counts) expect(count).toBeGreaterThan(400);
    expect(shardOf("github/ACME/Api", 7)).toBe(shardOf("github/acme/api", 7));
    expect(shardOf("github/acme/api", 1)).toBe(1);
  });

  it("splits the plan into disjoint shards whose union is the full plan; --merge gives the same summary", async () => {
    const sandbox = await world(24);
    const cwd = workspace(sandbox, config);
    // Over REST, where what a shard reads is a request per resource of its own.
    const full = await runInProcess(["plan", "--reads", "rest", "--out", "full.json"], {
      env,
      cwd,
    });
    expect(full.stderr).toBe("");
    expect(full.code).toBe(2);
    const fullPlan = JSON.parse(readFileSync(join(cwd, "full.json"), "utf8")) as Plan;
    const fullReads = sandbox.stats().requests_total;

    const shards: Plan[] = [];
    for (const k of [1, 2, 3]) {
      const before = sandbox.stats().requests_total;
      const run = await runInProcess(
        ["plan", "--reads", "rest", "--shard", `${k}/3`, "--out", `s${k}.json`],
        { env, cwd },
      );
      expect(run.stderr).toBe("");
      shards.push(JSON.parse(readFileSync(join(cwd, `s${k}.json`), "utf8")) as Plan);
      // Nothing outside the shard is read: each shard reads well under the full plan's reads.
      expect(sandbox.stats().requests_total - before).toBeLessThan(fullReads * 0.75);
    }
    const seen = new Set<string>();
    for (const shard of shards) {
      expect(shard.changes.length).toBeGreaterThan(0);
      for (const change of shard.changes) {
        expect(seen.has(change.address)).toBe(false);
        seen.add(change.address);
      }
    }
    const union = new Map(shards.flatMap((shard) => [...byAddress(shard)]));
    expect(union).toEqual(byAddress(fullPlan));
    expect(
      fullPlan.changes.some((c) => c.address === "github/acme/repo-0003/branch_protection/main"),
    ).toBe(false);
    expect(union.get("github/acme/repo-0005/branch_protection/main")?.diff).toEqual(
      byAddress(fullPlan).get("github/acme/repo-0005/branch_protection/main")?.diff,
    );

    const merged = await runInProcess(
      ["plan", "--merge", "s1.json", "s2.json", "s3.json", "--format", "markdown"],
      { env, cwd },
    );
    const fullMarkdown = await runInProcess(["plan", "--format", "markdown"], { env, cwd });
    expect(merged.code).toBe(fullMarkdown.code);
    const table = (text: string) => text.split("\n").slice(0, 7).join("\n");
    expect(table(merged.stdout)).toBe(table(fullMarkdown.stdout));
    expect(table(merged.stdout)).toContain(
      `| ${fullPlan.summary.create} | ${fullPlan.summary.update} | ${fullPlan.summary.delete} |`,
    );
    const mergedJson = await runInProcess(
      ["plan", "--merge", "s3.json", "s1.json", "s2.json", "--format", "json"],
      { env, cwd },
    );
    expect((JSON.parse(mergedJson.stdout) as Plan).summary).toEqual(fullPlan.summary);
    expect(shards.map((shard) => shard.shard)).toEqual([
      { index: 1, count: 3 },
      { index: 2, count: 3 },
      { index: 3, count: 3 },
    ]);

    const incomplete = await runInProcess(["plan", "--merge", "s1.json", "s3.json"], { env, cwd });
    expect(incomplete).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "forgeplan: plan: shard 2/3 is missing: a merged plan needs the plans of all 3 shards\n",
    });
    const repeated = await runInProcess(
      ["plan", "--merge", "s1.json", "s2.json", "s3.json", "s3.json"],
      { env, cwd },
    );
    expect(repeated.stderr).toBe(
      "forgeplan: plan: shard 3/3 is in both s3.json and s3.json; merge each shard once\n",
    );
  });

  it("gives each of N shards 1/N of the token's limits, or the share --shard-share names", () => {
    const shard = { index: 2, count: 4 };
    expect(shardClientOptions("plan", shard, undefined)).toEqual({ shareOfBudget: 0.25 });
    expect(shardClientOptions("plan", undefined, undefined)).toEqual({});
    expect(shardClientOptions("plan", shard, "1/2")).toEqual({ shareOfBudget: 0.5 });
    expect(shardClientOptions("plan", shard, "1")).toEqual({ shareOfBudget: 1 });
    for (const bad of ["0", "1.5", "x", "", "2/1"]) {
      expect(() => shardClientOptions("plan", shard, bad)).toThrow(
        `plan: --shard-share expects a share of the token's limits above 0 and at most 1 (0.5 or 1/2), got '${bad}'`,
      );
    }
    expect(() => shardClientOptions("plan", undefined, "0.5")).toThrow(
      "plan: --shard-share needs --shard K/N",
    );
  });
});

describe("plan --merge", () => {
  it("refuses plans that overlap, files that are not plans, and mixing with live reads", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, "");
    const plan = makePlan([]);
    writeFileSync(join(cwd, "empty.json"), JSON.stringify(plan));
    writeFileSync(join(cwd, "not-a-plan.json"), "{}");
    writeFileSync(join(cwd, "broken.json"), "{");
    const cases: Array<[string[], RegExp]> = [
      [["--merge"], /--merge needs the plan files/],
      [["--merge", "missing.json"], /cannot read the plan missing.json: ENOENT/],
      [["--merge", "not-a-plan.json"], /not-a-plan.json is not a forgeplan plan/],
      [["--merge", "broken.json"], /broken.json is not valid JSON/],
      [
        ["--merge", "empty.json", "-c", "forgeplan.yaml"],
        /--merge combines saved plans; it takes no -c or --shard/,
      ],
      [["empty.json"], /unexpected argument 'empty.json' \(plan files go after --merge\)/],
    ];
    for (const [argv, message] of cases) {
      const run = await runInProcess(["plan", ...argv], { env, cwd });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.split("\n")).toHaveLength(2);
    }
  });

  it("refuses an address found in two plans, and a summary that does not count the changes", () => {
    const change = {
      address: "github/acme/api/webhook/x",
      kind: "webhook",
      action: "update",
      target: "github",
      scope: "acme/api",
      name: "x",
      diff: [],
      requests: [],
    };
    const summary = { create: 0, update: 1, delete: 0, report: 0, "no-op": 0 };
    const shard = { index: 1, count: 1 };
    const text = JSON.stringify({ format_version: 1, changes: [change], summary, shard });
    expect(mergePlans([{ source: "a.json", text }]).summary.update).toBe(1);
    const edited = JSON.stringify({
      format_version: 1,
      changes: [change],
      summary: { ...summary, update: 99 },
      shard,
    });
    expect(() => mergePlans([{ source: "d.json", text: edited }])).toThrow(
      "d.json: summary does not match its changes (update 99 ≠ 1); the file was edited or damaged",
    );
    expect(() =>
      mergePlans([
        { source: "a.json", text },
        { source: "b.json", text },
      ]),
    ).toThrow(PlanFileError);
    const second = JSON.stringify({
      format_version: 1,
      changes: [{ ...change, address: "github/acme/web/webhook/x", scope: "acme/web" }],
      summary,
      shard: { index: 2, count: 2 },
    });
    expect(() =>
      mergePlans([
        { source: "one-of-one.json", text },
        { source: "two-of-two.json", text: second },
      ]),
    ).toThrow(
      "two-of-two.json is shard 2/2 but one-of-one.json is shard 1/1; merge the plans of one sharded run",
    );
    const whole = JSON.stringify({ format_version: 1, changes: [change], summary });
    expect(() => mergePlans([{ source: "whole.json", text: whole }])).toThrow(
      "whole.json is not a shard plan (it records no --shard K/N); merge the plans of the shards of one run",
    );
    const badKind = JSON.stringify({ format_version: 1, changes: [{ ...change, kind: "robot" }] });
    expect(() => mergePlans([{ source: "c.json", text: badKind }])).toThrow(
      "c.json: changes[0].kind: unknown kind 'robot'",
    );
  });
});
