import { afterEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

/**
 * Custom properties set as code against the sandbox: the writes apply sends for many repositories,
 * the plan-time refusal of a value the definition does not allow, a repository created in an
 * organization whose required property needs an explicit value, and removals repositories hold.
 */

let world: RunningSandbox | undefined;
let writes: RecordedRequest[] = [];
afterEach(async () => {
  await world?.stop();
  world = undefined;
  writes = [];
});

async function start(generate = 0): Promise<RunningSandbox> {
  world = await sandbox({
    generate,
    onRequest: (request) => {
      if (request.method !== "GET") writes.push(request);
    },
  });
  return world;
}

const at = () => ["--sandbox-url", world!.url];

async function planOf(path: string): Promise<{ code: number; plan: Plan; stderr: string }> {
  const result = await runInProcess(["plan", "-c", path, ...at(), "--format", "json"]);
  return { code: result.code, plan: JSON.parse(result.stdout) as Plan, stderr: result.stderr };
}

describe("repository property values", () => {
  it("sets one value on 1,000 repositories with 34 writes, and re-plans as no change", async () => {
    await start(1000);
    const path = configFile(
      "version: 1\nrepositories:\n  - name: acme/repo-*\n    properties:\n      team: core\n",
    );
    const { code, plan } = await planOf(path);
    expect(code).toBe(2);
    expect(plan.summary.update).toBe(1000);
    expect(plan.changes[0]).toMatchObject({
      address: "github/acme/repo-0001/custom_property/team",
      diff: [{ path: "value", before: "team-01", after: "core" }],
      requests: [
        {
          method: "PATCH",
          path: "/orgs/acme/properties/values",
          body: {
            repository_names: ["repo-0001"],
            properties: [{ property_name: "team", value: "core" }],
          },
        },
      ],
    });
    expect(plan.changes[0]!.notes?.join("\n")).toContain("`where: {properties}`");
    const applied = await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"]);
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    expect(applied.stdout).toContain("Verified: re-plan shows no changes.");
    expect(writes.map((write) => `${write.method} ${write.path}`)).toEqual(
      Array.from({ length: 34 }, () => "PATCH /orgs/acme/properties/values"),
    );
    const names = writes.flatMap(
      (write) => (write.body as { repository_names: string[] }).repository_names,
    );
    expect(new Set(names).size).toBe(1000);
    expect(
      writes.every(
        (write) => (write.body as { repository_names: string[] }).repository_names.length <= 30,
      ),
    ).toBe(true);
    const values = await call(world!, "GET", "/repos/acme/repo-0777/properties/values");
    expect(values.body).toContainEqual({ property_name: "team", value: "core" });
  });

  it("refuses at plan time a value the definition does not allow, naming the allowed values and where it is written", async () => {
    await start();
    const path = configFile(
      "version: 1\nrepositories:\n  - name: acme/web\n    properties:\n      tier: urgent\n  - name: acme/api\n    properties:\n      tier: [critical]\n",
    );
    const { code, plan } = await planOf(path);
    expect(code).toBe(1);
    const errors = Object.fromEntries(
      plan.changes.map((change) => [
        change.address,
        change.error?.written ?? change.error?.message,
      ]),
    );
    expect(errors["github/acme/web/custom_property/tier"]).toBe(`${path}:5:7: properties.tier`);
    const web = plan.changes.find(
      (change) => change.address === "github/acme/web/custom_property/tier",
    );
    expect(web?.error?.message).toBe(
      "tier (single_select): 'urgent' is not an allowed value (allowed: critical, standard)",
    );
    const api = plan.changes.find(
      (change) => change.address === "github/acme/api/custom_property/tier",
    );
    expect(api?.error?.written).toBe(`${path}:8:7: properties.tier`);
    expect(api?.error?.message).toMatch(
      /tier \(single_select\): a single_select value is one of its allowed values/,
    );
    expect(writes).toEqual([]);
  });

  it("compares a multi_select as a set and true_false as GitHub stores it", async () => {
    await start();
    await call(world!, "PUT", "/orgs/acme/properties/schema/langs", {
      body: { value_type: "multi_select", allowed_values: ["go", "ts", "py"] },
    });
    await call(world!, "PUT", "/orgs/acme/properties/schema/public", {
      body: { value_type: "true_false" },
    });
    await call(world!, "PATCH", "/orgs/acme/properties/values", {
      body: {
        repository_names: ["api"],
        properties: [
          { property_name: "langs", value: ["ts", "go"] },
          { property_name: "public", value: "true" },
        ],
      },
    });
    writes = [];
    const path = configFile(
      "version: 1\nrepositories:\n  - name: acme/api\n    properties:\n      LANGS: [go, ts, go]\n      public: true\n      Team: platform\n",
    );
    const { code, plan } = await planOf(path);
    expect(code).toBe(0);
    expect(plan.summary["no-op"]).toBe(3);
  });
});

describe("a repository created in an organization with a required property", () => {
  it("is created with its values in the create request, without a 422", async () => {
    await start();
    // tier must be given explicitly: GitHub refuses a creation without it.
    await call(world!, "PUT", "/orgs/acme/properties/schema/tier", {
      body: {
        value_type: "single_select",
        required: true,
        default_value: "standard",
        allowed_values: ["critical", "standard"],
        require_explicit_values: true,
      },
    });
    const refused = await call(world!, "POST", "/orgs/acme/repos", { body: { name: "bare" } });
    expect(refused.status).toBe(422);
    writes = [];
    const path = configFile(
      "version: 1\nrepositories:\n  - name: acme/payments\n    settings: { create: true, visibility: private, description: Payments }\n    properties:\n      tier: critical\n      team: payments\n",
    );
    const { plan } = await planOf(path);
    const create = plan.changes.find(
      (change) => change.address === "github/acme/payments/settings/repository",
    );
    expect(create?.requests[0]).toMatchObject({
      method: "POST",
      path: "/orgs/acme/repos",
      body: { name: "payments", custom_properties: { tier: "critical", team: "payments" } },
    });
    const applied = await runInProcess([
      "apply",
      "-c",
      path,
      ...at(),
      "--auto-approve",
      "--allow-create",
    ]);
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    expect(applied.stdout).toContain("Verified: re-plan shows no changes.");
    expect(writes.map((write) => `${write.method} ${write.path}`)).toEqual([
      "POST /orgs/acme/repos",
    ]);
    const values = await call(world!, "GET", "/repos/acme/payments/properties/values");
    expect(values.body).toEqual([
      { property_name: "team", value: "payments" },
      { property_name: "tier", value: "critical" },
    ]);
  });
});

describe("removing what repositories hold", () => {
  it("holds the removal of an allowed value three repositories hold, naming them", async () => {
    await start();
    await call(world!, "PATCH", "/orgs/acme/properties/values", {
      body: {
        repository_names: ["api", "web", "legacy"],
        properties: [{ property_name: "tier", value: "critical" }],
      },
    });
    writes = [];
    const path = configFile(`version: 1
organizations:
  - name: acme
    custom_properties:
      items:
        tier:
          value_type: single_select
          required: true
          default_value: standard
          allowed_values: [standard]
          description: How critical the service is
        team: null
`);
    const { code, plan } = await planOf(path);
    expect(code).toBe(2);
    const tier = plan.changes.find(
      (change) => change.address === "github/acme/custom_property/tier",
    );
    expect(tier).toMatchObject({
      action: "update",
      capped: { by: "collection", count: 3, live: 3 },
    });
    expect(tier?.notes).toContain(
      "3 repositories hold critical (api, web, legacy); they keep a value the property no longer allows",
    );
    const team = plan.changes.find(
      (change) => change.address === "github/acme/custom_property/team",
    );
    expect(team).toMatchObject({ action: "delete", capped: { count: 3, live: 3 } });
    expect(team?.notes?.join("\n")).toContain("3 repositories hold a value of team");
    const applied = await runInProcess([
      "apply",
      "-c",
      path,
      ...at(),
      "--auto-approve",
      "--allow-delete",
    ]);
    expect(applied.stdout).toContain("Held by the removal limit");
    expect(writes).toEqual([]);
    const raised = await runInProcess([
      "apply",
      "-c",
      path,
      ...at(),
      "--auto-approve",
      "--allow-delete",
      "--removal-limit",
      "100",
    ]);
    expect([raised.code, raised.stderr]).toEqual([0, ""]);
    expect(writes.map((write) => `${write.method} ${write.path}`).sort()).toEqual([
      "DELETE /orgs/acme/properties/schema/team",
      "PUT /orgs/acme/properties/schema/tier",
    ]);
  });
});
