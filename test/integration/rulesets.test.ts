import { parse } from "yaml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import { exportState } from "../../src/engine/export.js";
import { ForgeClient } from "../../src/forge/client.js";
import { Secret } from "../../src/core/secret.js";
import { ResourceReader } from "../../src/resources/context.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { checkRulesetBodies, EVERY_RULE_TYPE } from "../helpers/rulesets.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox;
beforeEach(async () => {
  world = await sandbox();
});
afterEach(async () => {
  await world.stop();
});

const at = () => ["--sandbox-url", world.url];

/** The placeholders an export of organization acme writes for its write-only values, set. */
const placeholders = { NPM_TOKEN: "set", ACME_HOOK_501_SECRET: "set" };

async function planOf(path: string): Promise<{ plan: Plan; code: number }> {
  const result = await runInProcess(["plan", "-c", path, ...at(), "--format", "json"], {
    env: placeholders,
  });
  expect(result.stderr).toBe("");
  return { plan: JSON.parse(result.stdout) as Plan, code: result.code };
}

function pending(plan: Plan) {
  return plan.changes.filter((change) => change.action !== "no-op" && change.action !== "report");
}

describe("rulesets: plan → apply → plan", () => {
  it("converges on repository and organization rulesets using every supported rule type", async () => {
    const path = configFile(EVERY_RULE_TYPE);
    const first = await planOf(path);
    expect(first.code).toBe(2);
    expect(first.plan.errors).toBe(0);
    expect(
      Object.fromEntries(pending(first.plan).map((change) => [change.address, change.action])),
    ).toEqual({
      "github/acme/api/ruleset/branches": "create",
      "github/acme/api/ruleset/tags": "create",
      "github/acme/api/ruleset/files": "create",
      "github/acme/ruleset/acme baseline": "update",
      "github/acme/ruleset/gold tags": "create",
      "github/acme/ruleset/org files": "create",
    });
    expect(checkRulesetBodies(first.plan)).toBe(6);
    const applied = await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"]);
    expect(applied.stdout).toContain("Verified: re-plan shows no changes.");
    expect(applied.code).toBe(0);
    const again = await planOf(path);
    expect(pending(again.plan)).toEqual([]);
    expect(again.code).toBe(0);
  });

  it("converges on the rulesets example", async () => {
    const example = "examples/rulesets.yaml";
    const applied = await runInProcess(["apply", "-c", example, ...at(), "--auto-approve"]);
    expect(applied.code).toBe(0);
    const { plan, code } = await planOf(example);
    expect(pending(plan)).toEqual([]);
    expect(code).toBe(0);
  });

  it("shows a live change rule by rule, and sends a PUT GitHub's schema takes", async () => {
    const path = configFile(EVERY_RULE_TYPE);
    expect((await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"])).code).toBe(0);
    const listed = (await call(world, "GET", "/repos/acme/api/rulesets?includes_parents=false"))
      .body as Array<{ id: number; name: string }>;
    const id = listed.find((item) => item.name === "branches")!.id;
    const live = (await call(world, "GET", `/repos/acme/api/rulesets/${id}`)).body as {
      rules: Array<{ type: string; parameters?: Record<string, unknown> }>;
    };
    const rules = live.rules.map((rule) =>
      rule.type === "pull_request"
        ? { ...rule, parameters: { ...rule.parameters, required_approving_review_count: 1 } }
        : rule,
    );
    expect(
      (await call(world, "PUT", `/repos/acme/api/rulesets/${id}`, { body: { rules } })).status,
    ).toBe(200);

    const { plan } = await planOf(path);
    const [change, ...others] = pending(plan);
    expect(others).toEqual([]);
    expect(change).toMatchObject({ address: "github/acme/api/ruleset/branches", action: "update" });
    expect(change?.diff).toEqual([
      { path: "rules.pull_request.required_approving_review_count", before: 1, after: 2 },
    ]);
    expect(change?.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `PUT /repos/acme/api/rulesets/${id}`,
    ]);
    expect(checkRulesetBodies(plan)).toBe(1);
    const markdown = await runInProcess(["plan", "-c", path, ...at(), "--format", "markdown"]);
    expect(markdown.stdout).toContain(
      "| <code>rules.pull\\_request.required\\_approving\\_review\\_count</code> | <code>1</code> | <code>2</code> |",
    );
    const text = await runInProcess(["plan", "-c", path, ...at()]);
    expect(text.stdout).toContain("rules.pull_request.required_approving_review_count: 1 → 2");
  });

  it("deletes a ruleset written as null and leaves rulesets it does not name alone", async () => {
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    rulesets:
      release tags: null
`);
    const { plan } = await planOf(path);
    expect(pending(plan).map((change) => [change.address, change.action])).toEqual([
      ["github/acme/api/ruleset/release tags", "delete"],
    ]);
    const applied = await runInProcess([
      "apply",
      "-c",
      path,
      ...at(),
      "--auto-approve",
      "--allow-delete",
    ]);
    expect(applied.code).toBe(0);
    expect((await call(world, "GET", "/repos/acme/api/rulesets")).body).toMatchObject([
      { name: "acme baseline" },
    ]);
  });

  it("makes an unknown team or app an error for its ruleset only", async () => {
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    rulesets:
      a: { bypass_actors: [{ team: nobody }] }
      b: { bypass_actors: [{ app: no-such-app }] }
      c: { rules: { deletion: true } }
  - name: octo-admin/dotfiles
    rulesets:
      d: { bypass_actors: [{ team: platform }] }
`);
    const { plan, code } = await planOf(path);
    expect(code).toBe(1);
    const errors = Object.fromEntries(
      plan.changes.filter((change) => change.error).map((change) => [change.name, change.error]),
    );
    expect(errors).toEqual({
      a: {
        message: 'team "nobody" does not exist in acme',
        request: "GET /orgs/acme/teams",
        status: 200,
      },
      b: {
        message: 'app "no-such-app" does not exist',
        request: "GET /apps/no-such-app",
        status: 404,
      },
      d: {
        message: "teams belong to organizations, and octo-admin is not one",
        request: "GET /orgs/octo-admin/teams",
        status: 404,
      },
    });
    expect(plan.changes.find((change) => change.name === "c")?.action).toBe("create");
  });

  it("never writes a ruleset that holds a rule type it does not manage", async () => {
    const created = await call(world, "POST", "/repos/acme/api/rulesets", {
      body: {
        name: "copilot",
        enforcement: "active",
        rules: [{ type: "copilot_code_review", parameters: { review_on_push: true } }],
      },
    });
    expect(created.status).toBe(201);
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    rulesets:
      copilot: { rules: { deletion: true } }
`);
    const { plan, code } = await planOf(path);
    expect(code).toBe(1);
    expect(plan.changes[0]).toMatchObject({
      address: "github/acme/api/ruleset/copilot",
      requests: [],
      error: {
        message:
          'ruleset "copilot" has rules forgeplan does not manage (copilot_code_review); writing it would remove them, so it is left alone',
      },
    });
    const exported = await runInProcess(["export", "--repo", "acme/api", ...at()]);
    expect(exported.code).toBe(1);
    expect(exported.stdout).toMatch(
      /^# not exported: the rulesets of acme\/api: .*copilot_code_review/m,
    );
  });
});

describe("export of rulesets", () => {
  it("writes repository rulesets that plan as no change", async () => {
    const path = configFile(EVERY_RULE_TYPE);
    expect((await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"])).code).toBe(0);
    const exported = await runInProcess(["export", "--repo", "acme/api", ...at()]);
    expect(exported.stderr).toBe("");
    const document = parse(exported.stdout) as { repositories: Array<{ rulesets: object }> };
    expect(Object.keys(document.repositories[0]!.rulesets).sort()).toEqual([
      "branches",
      "files",
      "release tags",
      "tags",
    ]);
    const { plan, code } = await planOf(configFile(exported.stdout));
    expect(pending(plan)).toEqual([]);
    expect(code).toBe(0);
  });

  it("writes an organization's rulesets as an organizations entry that plans as no change", async () => {
    const path = configFile(EVERY_RULE_TYPE);
    expect((await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"])).code).toBe(0);
    const client = new ForgeClient({
      baseUrl: world.url,
      kind: "repository",
      token: new Secret("sandbox-admin", "sandbox"),
      writeIntervalMs: 0,
    });
    const reader = new ResourceReader("github", client);
    const exported = await exportState({ repos: [], organizations: ["acme"] }, () => reader);
    const entries = exported.document.organizations as Array<{ name: string; rulesets: object }>;
    expect(entries.map((entry) => [entry.name, Object.keys(entry.rulesets)])).toEqual([
      ["acme", ["acme baseline", "gold tags", "org files"]],
    ]);
    const { plan, code } = await planOf(configFile(JSON.stringify(exported.document)));
    expect(pending(plan)).toEqual([]);
    expect(code).toBe(0);
  });
});
