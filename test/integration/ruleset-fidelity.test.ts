import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

/**
 * Rulesets as GitHub answers them: parameters its schema does not publish, and what a PUT keeps.
 */

let world: RunningSandbox;
beforeEach(async () => {
  world = await sandbox();
});
afterEach(async () => {
  await world.stop();
});

const at = () => ["--sandbox-url", world.url];

async function planOf(path: string): Promise<{ plan: Plan; code: number }> {
  const result = await runInProcess(["plan", "-c", path, ...at(), "--format", "json"]);
  expect(result.stderr).toBe("");
  return { plan: JSON.parse(result.stdout) as Plan, code: result.code };
}

const REVIEWED = `version: 1
repositories:
  - name: acme/api
    rulesets:
      reviewed:
        conditions: { ref_name: { include: ["~DEFAULT_BRANCH"] } }
        rules:
          deletion: true
          pull_request: { required_approving_review_count: 1 }
`;

const pullRequest = (extra: Record<string, unknown>) => ({
  type: "pull_request",
  parameters: {
    required_approving_review_count: 1,
    dismiss_stale_reviews_on_push: false,
    require_code_owner_review: false,
    require_last_push_approval: false,
    required_review_thread_resolution: false,
    ...extra,
  },
});

describe("rule parameters GitHub answers beyond its schema", () => {
  it("plans no change for automatic_copilot_code_review_enabled: false, as GitHub answers it", async () => {
    const path = configFile(REVIEWED);
    const applied = await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"]);
    expect(applied.stdout).toContain("Verified: re-plan shows no changes.");
    const live = await call(world, "GET", "/repos/acme/api/rulesets?includes_parents=false");
    const id = (live.body as Array<{ id: number; name: string }>).find(
      (item) => item.name === "reviewed",
    )?.id;
    const read = await call(world, "GET", `/repos/acme/api/rulesets/${id}`);
    const rule = (
      read.body.rules as Array<{ type: string; parameters: Record<string, unknown> }>
    ).find((item) => item.type === "pull_request");
    expect(rule?.parameters.automatic_copilot_code_review_enabled).toBe(false);
    const again = await planOf(path);
    expect(again.code).toBe(0);
  });

  it("never writes a ruleset whose rule has such a parameter set, since the PUT would reset it", async () => {
    const created = await call(world, "POST", "/repos/acme/api/rulesets", {
      body: {
        name: "reviewed",
        enforcement: "active",
        conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
        rules: [{ type: "deletion" }, pullRequest({ automatic_copilot_code_review_enabled: true })],
      },
    });
    expect(created.status).toBe(201);
    const path = configFile(
      REVIEWED.replace("required_approving_review_count: 1", "required_approving_review_count: 2"),
    );
    const { plan, code } = await planOf(path);
    expect(code).toBe(1);
    expect(plan.changes[0]).toMatchObject({
      address: "github/acme/api/ruleset/reviewed",
      requests: [],
      error: {
        message:
          'ruleset "reviewed" has settings forgeplan does not manage (pull_request.automatic_copilot_code_review_enabled: true); writing it would reset them, so it is left alone',
        request: `GET /repos/acme/api/rulesets/${created.body.id}`,
      },
    });
    const exported = await runInProcess(["export", "--repo", "acme/api", ...at()]);
    expect(exported.code).toBe(1);
    expect(exported.stdout).toMatch(
      /^# not exported: the rulesets of acme\/api: .*pull_request\.automatic_copilot_code_review_enabled/m,
    );
    const after = await call(world, "GET", `/repos/acme/api/rulesets/${created.body.id}`);
    expect(after.body.rules[1].parameters.automatic_copilot_code_review_enabled).toBe(true);
  });
});
