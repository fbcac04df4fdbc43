import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { Plan } from "../../src/core/plan.js";
import { demoWorld, type RecordedRequest, type RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";
import { placeholdersOf } from "../helpers/placeholders.js";

/**
 * GitLab CI/CD variables (#37, item 2) against the demo world with acme/api's variables seeded:
 * DEPLOY_TOKEN in the scopes `*` and `production` (two variables of one key) and SIGNING_KEY,
 * masked and hidden. A variable is its key and scope: one scope's value changes with one PUT that
 * names the scope; a hidden value is sent again only when rotated; export writes placeholders.
 */

const LIVE = {
  DEPLOY_ALL: "deploy_all_0001",
  DEPLOY_PROD: "deploy_prod_0002",
  SIGNING: "signing_hidden_0003",
};

function worldFile(): string {
  const seed = structuredClone(demoWorld) as {
    projects?: Array<{ id: number; variables?: unknown[] }>;
  };
  const api = seed.projects?.find((project) => project.id === 1);
  if (api === undefined) throw new Error("the demo world has no project 1");
  api.variables = [
    { key: "DEPLOY_TOKEN", value: LIVE.DEPLOY_ALL, masked: true },
    {
      key: "DEPLOY_TOKEN",
      value: LIVE.DEPLOY_PROD,
      masked: true,
      protected: true,
      environment_scope: "production",
    },
    { key: "SIGNING_KEY", value: LIVE.SIGNING, masked: true, hidden: true },
  ];
  const file = join(mkdtempSync(join(tmpdir(), "forgeplan-variables-")), "world.yaml");
  writeFileSync(file, stringify(seed));
  return file;
}

let world: RunningSandbox | undefined;
let requests: RecordedRequest[] = [];
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

async function start(): Promise<RunningSandbox> {
  world = await sandbox({ seed: worldFile(), onRequest: (request) => requests.push(request) });
  return world;
}

async function run(
  command: "plan" | "apply",
  config: string,
  env: Record<string, string>,
  ...flags: string[]
) {
  requests = [];
  const result = await runInProcess(
    [
      command,
      "-c",
      config,
      "--sandbox-url",
      world!.url,
      ...(command === "plan" ? ["--format", "json"] : ["--auto-approve"]),
      ...flags,
    ],
    { env },
  );
  return {
    ...result,
    plan: command === "plan" ? (JSON.parse(result.stdout) as Plan) : undefined,
  };
}

const writes = () =>
  requests
    .filter((request) => request.method !== "GET")
    .map((request) => `${request.method} ${decodeURIComponent(request.path)}`);

async function listed(path = "/api/v4/projects/acme%2Fapi/variables") {
  const answer = await call(world!, "GET", path);
  expect(answer.status).toBe(200);
  return answer.body as Array<Record<string, unknown>>;
}

const pending = (plan: Plan) => plan.changes.filter((change) => change.action !== "no-op");

describe("GitLab CI/CD variables", () => {
  it("holds one key in two scopes as two variables, and changes one scope's value with one PUT naming its scope", async () => {
    await start();
    const config = configFile(`version: 1
projects:
  - project: acme/api
    variables:
      items:
        DEPLOY_TOKEN: { value: "\${DEPLOY_ALL}", masked: true }
        DEPLOY_TOKEN@production: { value: "\${DEPLOY_PROD}", masked: true, protected: true }
        DEPLOY_TOKEN@staging: { value: "\${DEPLOY_STAGING}", masked: true }
`);
    const env = { ...LIVE, DEPLOY_PROD: "deploy_prod_rotated_0004", DEPLOY_STAGING: "stage_0005" };
    const planned = await run("plan", config, env);
    expect(planned.code).toBe(2);
    expect(
      planned.plan!.changes.map((change) => [change.name, change.action, change.requests]),
    ).toEqual([
      ["DEPLOY_TOKEN", "no-op", []],
      [
        "DEPLOY_TOKEN@production",
        "update",
        [
          {
            method: "PUT",
            path: "/api/v4/projects/acme%2Fapi/variables/DEPLOY_TOKEN?filter[environment_scope]=production",
            body: { value: { $secret: "DEPLOY_PROD" } },
          },
        ],
      ],
      [
        "DEPLOY_TOKEN@staging",
        "create",
        [
          {
            method: "POST",
            path: "/api/v4/projects/acme%2Fapi/variables",
            body: {
              key: "DEPLOY_TOKEN",
              value: { $secret: "DEPLOY_STAGING" },
              environment_scope: "staging",
              masked: true,
            },
          },
        ],
      ],
    ]);
    // The value changed is shown as sensitive, and neither value is anywhere in the plan.
    expect(planned.plan!.changes[1]!.diff).toEqual([
      { path: "value", before: "(sensitive)", after: "(sensitive)", sensitive: true },
    ]);
    expect(planned.stdout).not.toContain(env.DEPLOY_PROD);
    expect(planned.stdout).not.toContain(LIVE.DEPLOY_PROD);

    expect((await run("apply", config, env)).code).toBe(0);
    expect(writes()).toEqual([
      "PUT /api/v4/projects/acme/api/variables/DEPLOY_TOKEN?filter[environment_scope]=production",
      "POST /api/v4/projects/acme/api/variables",
    ]);
    const live = await listed();
    expect(
      live.filter((v) => v.key === "DEPLOY_TOKEN").map((v) => [v.environment_scope, v.value]),
    ).toEqual([
      ["*", LIVE.DEPLOY_ALL],
      ["production", env.DEPLOY_PROD],
      ["staging", env.DEPLOY_STAGING],
    ]);
    expect((await run("plan", config, env)).code).toBe(0);

    // GitLab's answer for a key held in several scopes, without the filter.
    const ambiguous = await call(
      world!,
      "GET",
      "/api/v4/projects/acme%2Fapi/variables/DEPLOY_TOKEN",
    );
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body).toEqual({
      message:
        "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
    });
  });

  it("sends a hidden variable's value again only when it is rotated", async () => {
    await start();
    const config = configFile(`version: 1
projects:
  - project: acme/api
    variables:
      items:
        SIGNING_KEY: { value: "\${SIGNING}", masked_and_hidden: true, description: Release signing }
`);
    const env = { ...LIVE, SIGNING: "signing_new_0006" };
    const planned = await run("plan", config, env);
    const [change] = planned.plan!.changes;
    // The description changes without the value, which GitLab never shows again.
    expect(change!.requests).toEqual([
      {
        method: "PUT",
        path: "/api/v4/projects/acme%2Fapi/variables/SIGNING_KEY?filter[environment_scope]=*",
        body: { description: "Release signing" },
      },
    ]);
    expect(change!.notes?.join(" ")).toContain("--rotate-secrets");
    expect((await run("apply", config, env)).code).toBe(0);
    expect((await run("plan", config, env)).code).toBe(0);

    const rotated = await run("plan", config, env, "--rotate-secret", "SIGNING_KEY");
    expect(pending(rotated.plan!).map((c) => [c.name, c.diff, c.requests])).toEqual([
      [
        "SIGNING_KEY",
        [{ path: "value", before: "(sensitive)", after: "(sensitive)", sensitive: true }],
        [
          {
            method: "PUT",
            path: "/api/v4/projects/acme%2Fapi/variables/SIGNING_KEY?filter[environment_scope]=*",
            body: { value: { $secret: "SIGNING" } },
          },
        ],
      ],
    ]);
    expect((await run("apply", config, env)).code).toBe(0);
    expect(writes()).toEqual([]);
    expect((await run("apply", config, env, "--rotate-secrets")).code).toBe(0);
    expect(writes()).toEqual([
      "PUT /api/v4/projects/acme/api/variables/SIGNING_KEY?filter[environment_scope]=*",
    ]);
    expect(requests.find((request) => request.method === "PUT")?.body).toEqual({
      value: env.SIGNING,
    });
    const hidden = (await listed()).find((v) => v.key === "SIGNING_KEY");
    expect(hidden).toMatchObject({ value: null, hidden: true, masked: true });
  });

  it("makes a hidden variable visible by deleting it and creating it again, keeping what is not written", async () => {
    await start();
    const config = configFile(`version: 1
projects:
  - project: acme/api
    variables:
      items:
        SIGNING_KEY: { value: "\${SIGNING}", masked_and_hidden: false }
`);
    const planned = await run("plan", config, LIVE);
    const [change] = pending(planned.plan!);
    expect(change!.notes).toEqual([
      "GitLab sets masked_and_hidden only when it creates a variable: it is deleted and created again with the value written",
    ]);
    expect(change!.requests).toEqual([
      {
        method: "DELETE",
        path: "/api/v4/projects/acme%2Fapi/variables/SIGNING_KEY?filter[environment_scope]=*",
      },
      {
        method: "POST",
        path: "/api/v4/projects/acme%2Fapi/variables",
        body: {
          key: "SIGNING_KEY",
          value: { $secret: "SIGNING" },
          environment_scope: "*",
          variable_type: "env_var",
          protected: false,
          masked: true,
          raw: false,
          description: null,
        },
      },
    ]);
    expect((await run("apply", config, LIVE)).code).toBe(0);
    expect((await listed()).find((v) => v.key === "SIGNING_KEY")).toMatchObject({
      value: LIVE.SIGNING,
      hidden: false,
      masked: true,
    });
    expect((await run("plan", config, LIVE)).code).toBe(0);
  });

  it("refuses at plan time a value GitLab cannot mask, without quoting it; GitLab refuses it too", async () => {
    await start();
    const config = configFile(`version: 1
projects:
  - project: acme/api
    variables:
      items:
        SHORT: { value: "\${SHORT}", masked: true }
`);
    const planned = await run("plan", config, { SHORT: "has space" });
    expect(planned.code).toBe(1);
    const [change] = planned.plan!.changes;
    expect(change!.error?.message).toContain("cannot be masked: it holds other characters");
    expect(planned.stdout).not.toContain("has space");
    const refused = await call(world!, "POST", "/api/v4/projects/acme%2Fapi/variables", {
      body: { key: "SHORT", value: "short", masked: true },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { value: ["is invalid"] } });
  });

  it("removes, under authoritative, one scope's variable and keeps the other scope's", async () => {
    await start();
    const config = configFile(`version: 1
projects:
  - project: acme/api
    variables:
      mode: authoritative
      items:
        DEPLOY_TOKEN@production: { value: "\${DEPLOY_PROD}" }
        SIGNING_KEY: { value: "\${SIGNING}" }
`);
    const planned = await run("plan", config, LIVE);
    expect(pending(planned.plan!).map((c) => [c.address, c.action])).toEqual([
      ["gitlab/acme/api/gitlab_variable/DEPLOY_TOKEN", "delete"],
    ]);
    expect((await run("apply", config, LIVE, "--allow-delete")).code).toBe(0);
    expect(writes()).toEqual([
      "DELETE /api/v4/projects/acme/api/variables/DEPLOY_TOKEN?filter[environment_scope]=*",
    ]);
    expect((await listed()).map((v) => [v.key, v.environment_scope])).toEqual([
      ["DEPLOY_TOKEN", "production"],
      ["SIGNING_KEY", "*"],
    ]);
  });

  it("exports placeholders, never values, and plans as no change with them set to the live values", async () => {
    await start();
    const out = configFile("", "exported.yaml");
    const exported = await runInProcess([
      "export",
      "--project",
      "acme/api",
      "--group",
      "partners",
      "--sandbox-url",
      world!.url,
      "--out",
      out,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, "utf8");
    for (const value of [...Object.values(LIVE), "npm_partners_all_0001"]) {
      expect(text).not.toContain(value);
    }
    const file = parse(text) as {
      projects: Array<{ project: string; variables?: { items: Record<string, unknown> } }>;
    };
    expect(file.projects.find((entry) => entry.project === "acme/api")!.variables).toEqual({
      mode: "additive",
      items: {
        DEPLOY_TOKEN: {
          value: "${ACME_API__DEPLOY_TOKEN}",
          variable_type: "env_var",
          protected: false,
          masked: true,
          raw: false,
          description: null,
        },
        "DEPLOY_TOKEN@production": {
          value: "${ACME_API__DEPLOY_TOKEN__PRODUCTION}",
          variable_type: "env_var",
          protected: true,
          masked: true,
          raw: false,
          description: null,
        },
        SIGNING_KEY: {
          value: "${ACME_API__SIGNING_KEY}",
          variable_type: "env_var",
          protected: false,
          masked_and_hidden: true,
          raw: false,
          description: null,
        },
      },
    });
    const env = {
      // The demo's hooks export their write-only tokens as placeholders to fill.
      ...placeholdersOf(text),
      ACME_API__DEPLOY_TOKEN: LIVE.DEPLOY_ALL,
      ACME_API__DEPLOY_TOKEN__PRODUCTION: LIVE.DEPLOY_PROD,
      // A hidden value is compared by presence: any value plans as no change.
      ACME_API__SIGNING_KEY: "not-the-live-value",
      PARTNERS__NPM_TOKEN: "npm_partners_all_0001",
      PARTNERS__NPM_TOKEN__PRODUCTION: "npm_partners_prod_0002",
      PARTNERS__SIGNING_KEY: "anything",
      PARTNERS__REGISTRY_URL: "https://registry.partners.sandbox.test",
    };
    const planned = await runInProcess(["plan", "-c", out, "--sandbox-url", world!.url], {
      env,
      cwd: dirname(out),
    });
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
    // A live value that differs from its variable's is a change, shown without either value.
    const drifted = await runInProcess(["plan", "-c", out, "--sandbox-url", world!.url], {
      env: { ...env, PARTNERS__NPM_TOKEN: "npm_other_value_0007" },
    });
    expect(drifted.code).toBe(2);
    expect(drifted.stdout).toContain("NPM_TOKEN");
    expect(drifted.stdout).not.toContain("npm_other_value_0007");
    expect(drifted.stdout).not.toContain("npm_partners_all_0001");
  });
});
