import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

const TOKEN = "ct_savedPlanToken_0042";
const env = { COLLECTOR_TOKEN: TOKEN, HOST: "collector.example" };
const config = configFile(`version: 1
repositories:
  - name: acme/web
    webhooks:
      hooks:
        - url: "https://\${HOST:public}/h?t=\${COLLECTOR_TOKEN}"
          events: [push]
`);
const out = join(dirname(config), "plan.json");

let world: RunningSandbox;
beforeEach(async () => {
  world = await sandbox();
});
afterEach(async () => {
  await world.stop();
});

describe("a saved plan with an interpolated value", () => {
  it("holds '(sensitive)' in its place, and apply sends the value", async () => {
    const at = ["--sandbox-url", world.url];
    const planned = await runInProcess(["plan", "-c", config, ...at, "--out", out], { env });
    expect(planned.code).toBe(2);
    const saved = readFileSync(out, "utf8");
    expect(saved).not.toContain(TOKEN);
    expect(saved).toContain(
      '"address": "github/acme/web/webhook/https://collector.example/h?t=(sensitive)"',
    );
    expect(saved).toContain('"url": "https://collector.example/h?t=(sensitive)"');

    const applied = await runInProcess(["apply", out, ...at, "--auto-approve"], { env });
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("Apply: 1 applied, 0 failed, 0 held, 0 skipped.");
    expect(applied.stdout).not.toContain(TOKEN);
    const hooks = (await call(world, "GET", "/repos/acme/web/hooks")).body as Array<{
      config: { url: string };
    }>;
    expect(hooks.map((hook) => hook.config.url)).toEqual([
      `https://collector.example/h?t=${TOKEN}`,
    ]);
  });

  it("is refused when the fresh plan differs once redacted", async () => {
    const at = ["--sandbox-url", world.url];
    await runInProcess(["plan", "-c", config, ...at, "--out", out], { env });
    const moved = { ...env, HOST: "elsewhere.example" };
    const applied = await runInProcess(["apply", out, ...at, "--auto-approve"], { env: moved });
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain(
      "refused github/acme/web/webhook/https://collector.example/h?t=(sensitive): it is no longer in the plan",
    );
    expect(applied.stderr).not.toContain(TOKEN);
  });
});
