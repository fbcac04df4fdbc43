import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

/**
 * GitHub lets hooks of one repository share a URL while their events differ. The demo world's hook 1
 * (push, pull_request, with a secret) gets a neighbour at its URL: hook 3 (release, its own secret).
 */
const CI = "https://ci.acme.example/hooks/forge";
const HOOKS = "/repos/acme/api/hooks";
const ADDRESS = `github/acme/api/webhook/${CI}`;
const env = { CI_SECRET: "ci-secret-value-1", RELEASE_SECRET: "release-secret-value-3" };

let world: RunningSandbox;
let writes: RecordedRequest[];
beforeEach(async () => {
  writes = [];
  world = await sandbox({
    onRequest: (request) => {
      if (request.method !== "GET") writes.push(request);
    },
  });
  const neighbour = await call(world, "POST", HOOKS, {
    body: { config: { url: CI, secret: env.RELEASE_SECRET }, events: ["release"] },
  });
  expect([neighbour.status, neighbour.body.id]).toEqual([201, 3]);
  writes = [];
});
afterEach(async () => {
  await world.stop();
});

const at = () => ["--sandbox-url", world.url];

interface LiveHook {
  id: number;
  url: string;
  events: string[];
  config: { secret?: string };
}

/** A config file managing acme/api's hooks: `mode`, and each hook as a YAML flow mapping. */
function hooksConfig(mode: "additive" | "authoritative", ...hooks: string[]): string {
  const listed = hooks.map((hook) => `        - ${hook}\n`).join("");
  return configFile(
    `version: 1\nrepositories:\n  - name: acme/api\n    webhooks:\n      mode: ${mode}\n      hooks:\n${listed}`,
  );
}

async function liveHooks(): Promise<LiveHook[]> {
  return (await call(world, "GET", HOOKS)).body as LiveHook[];
}

async function planOf(path: string): Promise<{ code: number; plan: Plan }> {
  const result = await runInProcess(["plan", "-c", path, ...at(), "--format", "json"], { env });
  return { code: result.code, plan: JSON.parse(result.stdout) as Plan };
}

function webhookChanges(plan: Plan): Array<[string, string]> {
  return plan.changes
    .filter((change) => change.kind === "webhook")
    .map((change) => [change.address, change.error ? "error" : change.action]);
}

/** Every hook PATCH sent: none may carry `config`, which would remove the secret on GitHub. */
function hookPatchesWithConfig(): RecordedRequest[] {
  return writes.filter(
    (request) =>
      request.method === "PATCH" &&
      /\/hooks\/\d+$/.test(request.path) &&
      (request.body as Record<string, unknown> | undefined)?.config !== undefined,
  );
}

describe("an unpinned hook whose url two live hooks share", () => {
  const config = (mode: "additive" | "authoritative") =>
    hooksConfig(mode, `{ url: "${CI}", events: [push], secret: "\${CI_SECRET}" }`);

  it("is an error naming both hooks, never a pick, and apply sends nothing for it", async () => {
    const path = config("additive");
    const { code, plan } = await planOf(path);
    expect(code).toBe(1);
    const change = plan.changes.find((entry) => entry.address === ADDRESS);
    expect(change?.error).toEqual({
      message: "2 hooks of acme/api have this url (ids 1, 3): pin the one to manage with id",
      request: `GET ${HOOKS}`,
      status: 200,
    });
    expect(change?.requests).toEqual([]);
    const applied = await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"], { env });
    expect(applied.code).toBe(1);
    expect(applied.stdout + applied.stderr).not.toContain(env.CI_SECRET);
    expect(writes).toEqual([]);
    expect((await liveHooks()).map((hook) => [hook.id, hook.events])).toEqual([
      [1, ["push", "pull_request"]],
      [2, ["issues", "issue_comment"]],
      [3, ["release"]],
    ]);
  });

  it("deletes none of them in authoritative mode, only the unlisted hook elsewhere", async () => {
    const path = config("authoritative");
    const { plan } = await planOf(path);
    expect(webhookChanges(plan)).toEqual([
      [ADDRESS, "error"],
      ["github/acme/api/webhook/https://chat.acme.example/notify", "delete"],
    ]);
    // A plan with an error applies nothing, unless told to apply the rest.
    const refused = await runInProcess(
      ["apply", "-c", path, ...at(), "--auto-approve", "--allow-delete"],
      { env },
    );
    expect(refused.code).toBe(1);
    expect(writes).toEqual([]);
    await runInProcess(
      ["apply", "-c", path, ...at(), "--auto-approve", "--allow-delete", "--allow-plan-errors"],
      { env },
    );
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([
      `DELETE ${HOOKS}/2`,
    ]);
    const live = await liveHooks();
    expect(live.map((hook) => [hook.id, hook.config.secret])).toEqual([
      [1, "********"],
      [3, "********"],
    ]);
  });
});

describe("hooks pinned by id at one url", () => {
  it("plan, apply and re-plan as no change under distinct addresses, keeping both secrets", async () => {
    const path = hooksConfig(
      "additive",
      `{ url: "${CI}", id: 1, events: [push, pull_request, deployment], secret: "\${CI_SECRET}" }`,
      `{ url: "${CI}", id: 3, events: [release, create], secret: "\${RELEASE_SECRET}" }`,
    );
    const first = await planOf(path);
    expect(first.code).toBe(2);
    expect(webhookChanges(first.plan)).toEqual([
      [`${ADDRESS}#1`, "update"],
      [`${ADDRESS}#3`, "update"],
    ]);
    const applied = await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"], { env });
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    expect(applied.stdout).toContain("Apply: 2 applied, 0 failed, 0 held, 0 skipped.");
    expect(writes.map((request) => `${request.method} ${request.path}`).sort()).toEqual([
      `PATCH ${HOOKS}/1`,
      `PATCH ${HOOKS}/3`,
    ]);
    expect(hookPatchesWithConfig()).toEqual([]);
    const live = await liveHooks();
    expect(live.map((hook) => [hook.id, hook.url, hook.events, hook.config.secret])).toEqual([
      [1, CI, ["deployment", "pull_request", "push"], "********"],
      [2, "https://chat.acme.example/notify", ["issues", "issue_comment"], undefined],
      [3, CI, ["create", "release"], "********"],
    ]);
    const again = await planOf(path);
    expect(again.code).toBe(0);
    expect(webhookChanges(again.plan)).toEqual([
      [`${ADDRESS}#1`, "no-op"],
      [`${ADDRESS}#3`, "no-op"],
    ]);
  });
});

describe("authoritative mode with a pinned hook", () => {
  it("deletes the other hook at its url under its own address, through a saved plan", async () => {
    const path = hooksConfig(
      "authoritative",
      `{ url: "${CI}", id: 1, events: [push, pull_request], secret: "\${CI_SECRET}" }`,
    );
    const out = join(dirname(path), "plan.json");
    const planned = await runInProcess(["plan", "-c", path, ...at(), "--out", out], { env });
    expect(planned.code).toBe(2);
    const text = readFileSync(out, "utf8");
    expect(text).not.toContain(env.CI_SECRET);
    const saved = JSON.parse(text) as Plan;
    // The kept hook is named by its url alone: its name must not change once the other is deleted.
    expect(webhookChanges(saved)).toEqual([
      [ADDRESS, "no-op"],
      ["github/acme/api/webhook/https://chat.acme.example/notify", "delete"],
      [`${ADDRESS}#3`, "delete"],
    ]);
    const applied = await runInProcess(
      ["apply", out, ...at(), "--auto-approve", "--allow-delete"],
      {
        env,
      },
    );
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    expect(writes.map((request) => `${request.method} ${request.path}`).sort()).toEqual([
      `DELETE ${HOOKS}/2`,
      `DELETE ${HOOKS}/3`,
    ]);
    const live = await liveHooks();
    expect(live.map((hook) => [hook.id, hook.events, hook.config.secret])).toEqual([
      [1, ["push", "pull_request"], "********"],
    ]);
    const again = await planOf(path);
    expect(again.code).toBe(0);
    expect(webhookChanges(again.plan)).toEqual([[ADDRESS, "no-op"]]);
  });

  it("deletes the other hook before taking its events, which GitHub would refuse while it is there", async () => {
    const path = hooksConfig(
      "authoritative",
      `{ url: "${CI}", id: 1, events: [push, pull_request, release] }`,
    );
    const applied = await runInProcess(
      ["apply", "-c", path, ...at(), "--auto-approve", "--allow-delete"],
      { env },
    );
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([
      `DELETE ${HOOKS}/2`,
      `DELETE ${HOOKS}/3`,
      `PATCH ${HOOKS}/1`,
    ]);
    const live = await liveHooks();
    expect(live.map((hook) => [hook.id, hook.events, hook.config.secret])).toEqual([
      [1, ["pull_request", "push", "release"], "********"],
    ]);
    expect(hookPatchesWithConfig()).toEqual([]);
  });
});

describe("export of a repository whose hooks share a url", () => {
  it("pins those hooks by id, so the YAML validates and plans as no change", async () => {
    const exported = await runInProcess(["export", "--repo", "acme/api", ...at()]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("id: 1\n");
    expect(exported.stdout).toContain("id: 3\n");
    expect(exported.stdout).not.toContain("id: 2\n");
    const path = configFile(exported.stdout);
    const valid = await runInProcess(["validate", "-c", path]);
    expect([valid.code, valid.stderr]).toEqual([0, ""]);
    const printed = await runInProcess(["validate", "-c", path, "--print"]);
    expect(printed.stdout).toContain(`\n${ADDRESS}#1  (`);
    expect(printed.stdout).toContain(`\n${ADDRESS}#3  (`);
    const { code, plan } = await planOf(path);
    expect(code).toBe(0);
    expect(webhookChanges(plan)).toEqual([
      [`${ADDRESS}#1`, "no-op"],
      ["github/acme/api/webhook/https://chat.acme.example/notify", "no-op"],
      [`${ADDRESS}#3`, "no-op"],
    ]);
  });
});
