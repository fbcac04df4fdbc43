import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { Plan } from "../../src/core/plan.js";
import { demoWorld, type RecordedRequest, type RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

/**
 * The GitLab instance's own CI/CD variables (#37, item 2): `instance: [{variables}]`, planned with
 * an administrator's token against `/api/v4/admin/ci/variables`. One sandbox for the file — the
 * demo world with octo-admin (`sandbox-admin`, the token `--sandbox-url` uses) an administrator and
 * two instance variables — whose state each test leaves as the next one expects.
 */

const LIVE = { REGISTRY: "https://registry.sandbox.test", LEGACY: "legacy_value_0001" };

function worldFile(): string {
  const seed = structuredClone(demoWorld) as unknown as {
    users: Array<Record<string, unknown>>;
    instance_variables?: unknown[];
  };
  for (const user of seed.users) if (user.login === "octo-admin") user.site_admin = true;
  seed.instance_variables = [
    { key: "REGISTRY_URL", value: LIVE.REGISTRY },
    { key: "LEGACY_TOKEN", value: LIVE.LEGACY, masked: true },
  ];
  const file = join(mkdtempSync(join(tmpdir(), "forgeplan-instance-variables-")), "world.yaml");
  writeFileSync(file, stringify(seed));
  return file;
}

let world: RunningSandbox;
let requests: RecordedRequest[] = [];
beforeAll(async () => {
  world = await sandbox({ seed: worldFile(), onRequest: (request) => requests.push(request) });
});
afterAll(() => world.stop());

async function run(
  command: "plan" | "apply",
  config: string,
  env: Record<string, string>,
  ...more: string[]
) {
  requests = [];
  const flags = command === "plan" ? ["--format", "json"] : ["--auto-approve", "--allow-delete"];
  const argv = [command, "-c", config, "--sandbox-url", world.url, ...flags, ...more];
  const result = await runInProcess(argv, { env });
  return { ...result, plan: command === "plan" ? (JSON.parse(result.stdout) as Plan) : undefined };
}

const writes = () =>
  requests
    .filter((request) => request.method !== "GET")
    .map((request) => `${request.method} ${request.path}`);

async function live() {
  const answer = await call(world, "GET", "/api/v4/admin/ci/variables");
  expect(answer.status).toBe(200);
  return answer.body as Array<Record<string, unknown>>;
}

const pending = (plan: Plan) => plan.changes.filter((change) => change.action !== "no-op");

const CONFIG = `version: 1
instance:
  - variables:
      mode: authoritative
      items:
        DEPLOY_TOKEN: { value: "\${DEPLOY}", masked: true, protected: true }
        REGISTRY_URL: { value: "\${REGISTRY}", description: Where packages go }
`;
const ENV = { DEPLOY: "deploy_instance_0002", REGISTRY: "https://registry.example.test" };

describe("the GitLab instance's CI/CD variables", () => {
  it("plans, applies and re-plans as no change: a create, an edit, a removal, none with a scope", async () => {
    const config = configFile(CONFIG);
    const planned = await run("plan", config, ENV);
    expect(planned.code, planned.stderr).toBe(2);
    expect(
      pending(planned.plan!).map((change) => [change.address, change.action, change.requests]),
    ).toEqual([
      [
        "gitlab/(instance)/gitlab_variable/DEPLOY_TOKEN",
        "create",
        [
          {
            method: "POST",
            path: "/api/v4/admin/ci/variables",
            body: {
              key: "DEPLOY_TOKEN",
              value: { $secret: "DEPLOY" },
              protected: true,
              masked: true,
            },
          },
        ],
      ],
      [
        "gitlab/(instance)/gitlab_variable/REGISTRY_URL",
        "update",
        [
          {
            method: "PUT",
            path: "/api/v4/admin/ci/variables/REGISTRY_URL",
            body: { value: { $secret: "REGISTRY" }, description: "Where packages go" },
          },
        ],
      ],
      [
        "gitlab/(instance)/gitlab_variable/LEGACY_TOKEN",
        "delete",
        [{ method: "DELETE", path: "/api/v4/admin/ci/variables/LEGACY_TOKEN" }],
      ],
    ]);
    for (const value of [...Object.values(ENV), ...Object.values(LIVE)]) {
      expect(planned.stdout).not.toContain(value);
    }

    const applied = await run("apply", config, ENV);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes()).toEqual([
      "DELETE /api/v4/admin/ci/variables/LEGACY_TOKEN",
      "POST /api/v4/admin/ci/variables",
      "PUT /api/v4/admin/ci/variables/REGISTRY_URL",
    ]);
    expect(await live()).toEqual([
      {
        variable_type: "env_var",
        key: "REGISTRY_URL",
        value: ENV.REGISTRY,
        protected: false,
        masked: false,
        raw: false,
        description: "Where packages go",
      },
      {
        variable_type: "env_var",
        key: "DEPLOY_TOKEN",
        value: ENV.DEPLOY,
        protected: true,
        masked: true,
        raw: false,
        description: null,
      },
    ]);
    const again = await run("plan", config, ENV);
    expect(again.code).toBe(0);
    expect(pending(again.plan!)).toEqual([]);
  });

  it("detects a live edit of a value and of a flag exactly, showing no value", async () => {
    const edited = await call(world, "PUT", "/api/v4/admin/ci/variables/DEPLOY_TOKEN", {
      body: { value: "edited_by_hand_0003", protected: false },
    });
    expect(edited.status).toBe(200);
    // Targeted by its address, as any change is.
    const target = "gitlab/(instance)/gitlab_variable/DEPLOY_TOKEN";
    const planned = await run("plan", configFile(CONFIG), ENV, "--target", target);
    expect(planned.code).toBe(2);
    expect(planned.plan!.changes.map((change) => change.address)).toEqual([target]);
    expect(pending(planned.plan!).map((change) => [change.name, change.diff])).toEqual([
      [
        "DEPLOY_TOKEN",
        [
          { path: "protected", before: false, after: true },
          { path: "value", before: "(sensitive)", after: "(sensitive)", sensitive: true },
        ],
      ],
    ]);
    expect(planned.stdout).not.toContain("edited_by_hand_0003");
    expect((await run("apply", configFile(CONFIG), ENV)).code).toBe(0);
    expect(writes()).toEqual(["PUT /api/v4/admin/ci/variables/DEPLOY_TOKEN"]);
  });

  it("reports a non-administrator's 403 as the read error of the entry, naming the request", async () => {
    const config = configFile(`version: 1
targets:
  gitlab: { type: gitlab, base_url: "${world.url}", token_env: DEV_TOKEN }
${CONFIG.replace("version: 1\n", "")}`);
    const planned = await runInProcess(["plan", "-c", config, "--format", "json"], {
      env: { ...ENV, DEV_TOKEN: "sandbox-dev" },
    });
    expect(planned.code).toBe(1);
    const plan = JSON.parse(planned.stdout) as Plan;
    expect(plan.changes.map((change) => [change.name, change.error?.request])).toEqual([
      ["*", "GET /api/v4/admin/ci/variables?per_page=100"],
      ["DEPLOY_TOKEN", "GET /api/v4/admin/ci/variables?per_page=100"],
      ["REGISTRY_URL", "GET /api/v4/admin/ci/variables?per_page=100"],
    ]);
    expect(plan.changes[0]!.error).toMatchObject({
      status: 403,
      message:
        "Forbidden (the instance's variables take an administrator's token; target gitlab's is not one)",
    });
    const exported = await runInProcess(["export", "--instance", "-c", config], {
      env: { ...ENV, DEV_TOKEN: "sandbox-dev" },
    });
    expect(exported.code, exported.stderr).toBe(1);
    expect(exported.stdout).toContain(
      "# not exported: the instance of target gitlab: GET /api/v4/admin/ci/variables?per_page=100 → 403: Forbidden (the instance's variables take an administrator's token; target gitlab's is not one)",
    );
  });

  it("refuses a scope, a GitHub target and a value GitLab would not keep, each in one line", async () => {
    const scoped = await runInProcess(
      ["validate", "-c", configFile(CONFIG.replace("DEPLOY_TOKEN:", "DEPLOY_TOKEN@production:"))],
      { env: ENV },
    );
    expect(scoped.code).toBe(1);
    expect(scoped.stderr).toContain(
      'instance variables have no environment scope (GitLab\'s instance-level API takes none): write "DEPLOY_TOKEN"',
    );
    const github = await runInProcess(
      [
        "validate",
        "-c",
        configFile(CONFIG.replace("  - variables:", "  - target: github\n    variables:")),
      ],
      { env: ENV },
    );
    expect(github.code).toBe(1);
    expect(github.stderr.trim().split("\n")).toHaveLength(1);
    expect(github.stderr).toMatch(/forgeplan\.yaml:3:\d+: .*target/);
    const long = "x".repeat(10_001);
    const planned = await run("plan", configFile(CONFIG), { ...ENV, DEPLOY: long });
    expect(planned.code).toBe(1);
    expect(planned.plan!.changes.find((change) => change.name === "DEPLOY_TOKEN")!.error).toEqual({
      message:
        "the value of DEPLOY_TOKEN (${DEPLOY}) is longer than the 10,000 characters GitLab keeps in a variable of the instance",
      written: expect.stringMatching(
        /forgeplan\.yaml:6:25: variables\.items\.DEPLOY_TOKEN\.value$/,
      ),
    });
    expect(planned.stdout).not.toContain(long);
  });

  it("exports placeholders with --instance, and the export plans as no change with them set", async () => {
    const out = configFile("", "exported.yaml");
    const exported = await runInProcess([
      "export",
      "--instance",
      "--sandbox-url",
      world.url,
      "--out",
      out,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, "utf8");
    for (const value of Object.values(ENV)) expect(text).not.toContain(value);
    expect((parse(text) as { instance: unknown }).instance).toEqual([
      {
        target: "gitlab",
        variables: {
          mode: "additive",
          items: {
            REGISTRY_URL: {
              value: "${INSTANCE__REGISTRY_URL}",
              variable_type: "env_var",
              protected: false,
              masked: false,
              raw: false,
              description: "Where packages go",
            },
            DEPLOY_TOKEN: {
              value: "${INSTANCE__DEPLOY_TOKEN}",
              variable_type: "env_var",
              protected: true,
              masked: true,
              raw: false,
              description: null,
            },
          },
        },
      },
    ]);
    const env = { INSTANCE__REGISTRY_URL: ENV.REGISTRY, INSTANCE__DEPLOY_TOKEN: ENV.DEPLOY };
    const planned = await runInProcess(["plan", "-c", out, "--sandbox-url", world.url], {
      env,
      cwd: dirname(out),
    });
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });
});
