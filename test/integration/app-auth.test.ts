import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { apply, plan } from "../../src/index.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import { APP_ID, appKeys, appKeyWorkspace, appSeedFile, INSTALLATION_ID } from "../helpers/apps.js";
import { call } from "../helpers/sandbox.js";
import { runInProcess } from "../helpers/cli.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

const PROTECTION = `    branch_protection:
      main:
        enforce_admins: true
        required_pull_request_reviews: { required_approving_review_count: 1 }
        required_status_checks: null
        restrictions: null
`;

/** A config directory whose `github` target signs in as App 4242 with the key in `app.pem` beside it. */
function appConfig(repositories: string[], target = "    private_key_file: app.pem\n"): string {
  return appKeyWorkspace(
    `    app_id: ${APP_ID}\n${target}`,
    repositories.map((name) => `  - name: ${name}\n${PROTECTION}`).join(""),
  );
}

async function start(
  options: {
    selected?: string[];
    ttl?: number;
    generate?: number;
    permissions?: Record<string, string>;
  } = {},
) {
  world = await startSandbox({
    port: 0,
    seed: appSeedFile(appKeys().publicKey, options),
    generate: options.generate ?? 0,
    ...(options.ttl !== undefined ? { tokenTtlSeconds: options.ttl } : {}),
  });
  return world;
}

/** Nothing that authenticates appears anywhere: not the key, not a token, not a JWT. */
function expectNoCredential(texts: string[]): void {
  const key = appKeys().privateKey.split("\n")[1] ?? "";
  for (const text of texts) {
    expect(text).not.toContain(key);
    expect(text).not.toMatch(/ghs_[0-9a-f]{8}/);
    expect(text).not.toMatch(/eyJ[\w-]+\.eyJ/);
  }
}

describe("the library with a target authenticated as a GitHub App", () => {
  it("plans and applies through installation tokens, as the CLI does", async () => {
    const sb = await start();
    const cwd = appConfig(["acme/api", "acme/web"]);
    const planned = await plan([], { cwd, env: {}, sandboxUrl: sb.url });
    if (!planned.ok) throw new Error("the config is valid");
    expect(planned.plan.changes.map((change) => change.action)).toEqual(["update", "create"]);
    const applied = await apply(planned.plan, { cwd, env: {}, sandboxUrl: sb.url });
    expect(applied).toMatchObject({ status: "applied", succeeded: true });
    expect(sb.stats().installation_tokens_issued).toBe(2);
    expectNoCredential([JSON.stringify(planned), JSON.stringify(applied)]);
  });
});

describe("a target authenticated only as a GitHub App", () => {
  it("plans, applies and checks drift with installation tokens, no static token anywhere", async () => {
    const sb = await start();
    const cwd = appConfig(["acme/api", "acme/web"]);
    const at = ["--sandbox-url", sb.url];
    const outputs: string[] = [];
    const plan = await runInProcess(["plan", ...at, "--format", "json"], { cwd, env: {} });
    outputs.push(plan.stdout, plan.stderr);
    expect([plan.code, plan.stderr]).toEqual([2, ""]);
    const changes = (JSON.parse(plan.stdout) as { changes: Array<{ action: string }> }).changes;
    expect(changes.map((change) => change.action)).toEqual(["update", "create"]);

    const apply = await runInProcess(["apply", ...at, "--auto-approve"], { cwd, env: {} });
    outputs.push(apply.stdout, apply.stderr);
    expect(apply.code).toBe(0);

    const drift = await runInProcess(["drift", ...at, "--cache", "cache"], { cwd, env: {} });
    outputs.push(drift.stdout, drift.stderr);
    expect(drift.code).toBe(0);
    expect(sb.stats().installation_tokens_issued).toBe(3);
    expectNoCredential([
      ...outputs,
      ...readdirSync(join(cwd, "cache")).map((file) =>
        readFileSync(join(cwd, "cache", file), "utf8"),
      ),
    ]);
  });

  it("takes the key from an environment variable", async () => {
    const sb = await start();
    const cwd = appConfig(["acme/api"], "    private_key_env: SETTINGS_BOT_KEY\n");
    const plan = await runInProcess(["plan", "--sandbox-url", sb.url], {
      cwd,
      env: { SETTINGS_BOT_KEY: appKeys().privateKey },
    });
    expect([plan.code, plan.stderr]).toEqual([2, ""]);
    expectNoCredential([plan.stdout]);
  });

  it("names the repository and the installation when the installation does not cover it", async () => {
    const sb = await start({ selected: ["acme/api"] });
    const cwd = appConfig(["acme/api", "acme/web"]);
    const plan = await runInProcess(["plan", "--sandbox-url", sb.url], { cwd, env: {} });
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      `repository acme/web was not found (or installation ${INSTALLATION_ID} of App ${APP_ID} on acme cannot see it)`,
    );
  });

  it("applies through several token lifetimes without a failed request", async () => {
    // 20 writes 200 ms apart under 2-second tokens: at least two lifetimes of writes.
    const sb = await start({ ttl: 2, generate: 20 });
    const cwd = appConfig(["acme/repo-*"]);
    const apply = await runInProcess(
      ["apply", "--sandbox-url", sb.url, "--auto-approve", "--write-interval", "200"],
      { cwd, env: {} },
    );
    expect([apply.code, apply.stderr]).toEqual([0, ""]);
    expect(apply.stdout).toContain("20 applied, 0 failed");
    expect(sb.stats().installation_tokens_issued).toBeGreaterThanOrEqual(3);
    expect(sb.stats().responses_by_status["401"]).toBeUndefined();
  }, 30_000);

  it.each([
    [
      "a key file that is not there",
      "    private_key_file: missing.pem\n",
      {},
      "plan: target 'github': cannot read the App's private key missing.pem: no such file",
    ],
    [
      "a key variable that is not set",
      "    private_key_env: SETTINGS_BOT_KEY\n",
      {},
      `plan: target 'github': App ${APP_ID} needs its private key in the environment variable SETTINGS_BOT_KEY`,
    ],
    [
      "a key variable that holds no key",
      "    private_key_env: SETTINGS_BOT_KEY\n",
      { SETTINGS_BOT_KEY: "not a key" },
      "plan: target 'github': SETTINGS_BOT_KEY does not hold a PEM private key",
    ],
  ])("refuses %s in one line, before any request", async (_what, target, env, message) => {
    const sb = await start();
    const cwd = appConfig(["acme/api"], target);
    const plan = await runInProcess(["plan", "--sandbox-url", sb.url], { cwd, env });
    expect([plan.code, plan.stdout, plan.stderr]).toEqual([1, "", `forgeplan: ${message}\n`]);
    expect(sb.stats().requests_total).toBe(0);
  });

  it("refuses a target whose repositories span owners without an installation id", async () => {
    const sb = await start();
    const cwd = appConfig(["acme/api", "octo-admin/dotfiles"]);
    const plan = await runInProcess(["plan", "--sandbox-url", sb.url], { cwd, env: {} });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      `App ${APP_ID} acts as one installation, on one account, but the target's repositories belong to acme, octo-admin`,
    );
  });
});

/**
 * Webhooks, rulesets and an organization ruleset, managed by App 4242 with the permissions docs/github.md
 * names for them: its hook edit is a config change of the hook that has a secret.
 */
const EVERY_KIND = `version: 1
targets:
  github:
    type: repository
    app_id: ${APP_ID}
    private_key_file: app.pem
repositories:
  - name: acme/api
    webhooks:
      hooks:
        - url: https://ci.acme.example/hooks/forge
          events: [push, pull_request]
          content_type: form
          active: true
    rulesets:
      release tags:
        target: tag
        conditions: { ref_name: { include: ["refs/tags/v*"], exclude: [] } }
        bypass_actors: [{ team: release-managers }, { app: settings-bot }]
        rules: { deletion: true }
organizations:
  - name: acme
    rulesets:
      acme baseline:
        conditions:
          ref_name: { include: ["~DEFAULT_BRANCH"] }
          repository_name: { include: ["~ALL"] }
        bypass_actors: [{ role: OrganizationAdmin }]
        rules: { deletion: true, non_fast_forward: true, required_linear_history: true }
`;

const APP_PERMISSIONS = {
  administration: "write",
  repository_hooks: "write",
  members: "read",
  organization_administration: "write",
};

describe("an App with the permissions docs/github.md names", () => {
  it("manages webhooks, rulesets and organization rulesets, keeping the hook's secret", async () => {
    const sb = await start({ permissions: APP_PERMISSIONS });
    const cwd = appConfig([]);
    writeFileSync(join(cwd, "forgeplan.yaml"), EVERY_KIND);
    const at = ["--sandbox-url", sb.url];
    const plan = await runInProcess(["plan", ...at, "--format", "json"], { cwd, env: {} });
    expect([plan.code, plan.stderr]).toEqual([2, ""]);
    const planned = JSON.parse(plan.stdout) as { changes: Array<{ address: string }> };
    expect(planned.changes.map((change) => change.address).sort()).toEqual([
      "github/acme/api/ruleset/release tags",
      "github/acme/api/webhook/https://ci.acme.example/hooks/forge",
      "github/acme/ruleset/acme baseline",
    ]);
    const apply = await runInProcess(["apply", ...at, "--auto-approve"], { cwd, env: {} });
    expect([apply.code, apply.stderr]).toEqual([0, ""]);
    const again = await runInProcess(["plan", ...at], { cwd, env: {} });
    expect([again.code, again.stderr]).toEqual([0, ""]);
    const config = await call(sb, "GET", "/repos/acme/api/hooks/1/config");
    expect(config.body).toMatchObject({ content_type: "form", secret: "********" });
  });

  it("selects repositories by custom property with organization Custom properties read", async () => {
    const sb = await start({
      permissions: { administration: "read", organization_custom_properties: "read" },
    });
    const cwd = appConfig([]);
    writeFileSync(
      join(cwd, "forgeplan.yaml"),
      `${EVERY_KIND.slice(0, EVERY_KIND.indexOf("repositories:"))}repositories:
  - name: acme/*
    where: { properties: { team: web } }
${PROTECTION}`,
    );
    const plan = await runInProcess(["plan", "--sandbox-url", sb.url, "--format", "json"], {
      cwd,
      env: {},
    });
    expect([plan.code, plan.stderr]).toEqual([2, ""]);
    const planned = JSON.parse(plan.stdout) as { changes: Array<{ address: string }> };
    expect(planned.changes.map((change) => change.address)).toEqual([
      "github/acme/web/branch_protection/main",
    ]);
  });

  it("exports with Contents read, which listing branches takes, and names it when missing", async () => {
    const exported = async (permissions: Record<string, string>) => {
      const sb = await start({ permissions });
      const cwd = appConfig(["acme/api"]);
      const run = await runInProcess(["export", "--repo", "acme/api", "--sandbox-url", sb.url], {
        cwd,
        env: {},
      });
      await sb.stop();
      world = undefined;
      return run;
    };
    // Administration write and Members read: export reads rulesets, whose bypass actors only an
    // editor sees, and names their teams; Issues read for labels, Actions read for environments;
    // Variables, Secrets and Dependabot secrets read: it reads those too; Pages read for sites,
    // organization Custom properties read for the repositories' values.
    const readers = {
      administration: "write",
      repository_hooks: "read",
      members: "read",
      issues: "read",
      actions: "read",
      actions_variables: "read",
      secrets: "read",
      dependabot_secrets: "read",
      pages: "read",
      organization_custom_properties: "read",
    };
    const refused = await exported(readers);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("(the token needs contents=read)");
    // What it reads about teams fails the same way, naming the request and the answer.
    const { members: _members, ...noMembers } = readers;
    const teams = await exported({ ...noMembers, contents: "read" });
    expect(teams.code).toBe(1);
    expect(teams.stdout.split("\n")).toContain(
      "# not exported: the rulesets of acme/api: GET /orgs/acme/teams?per_page=100 → 403: Resource not accessible by integration (the token needs members=read)",
    );
    expect(teams.stderr).toBe(
      'forgeplan: export: 1 part could not be read and is left out; the YAML names it in a comment starting "# not exported:"\n',
    );
    const done = await exported({ ...readers, contents: "read" });
    expect([done.code, done.stderr]).toEqual([0, ""]);
    expect(done.stdout).toContain("name: acme/api");
  });

  it("names the permission a refused read needs", async () => {
    const { members: _members, ...withoutMembers } = APP_PERMISSIONS;
    const sb = await start({ permissions: withoutMembers });
    const cwd = appConfig([]);
    writeFileSync(join(cwd, "forgeplan.yaml"), EVERY_KIND);
    const plan = await runInProcess(["plan", "--sandbox-url", sb.url], { cwd, env: {} });
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      "GET /orgs/acme/teams?per_page=100 → 403: Resource not accessible by integration (the token needs members=read)",
    );
  });
});
