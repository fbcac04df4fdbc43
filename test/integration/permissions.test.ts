import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDesiredState } from "../../src/engine/desired.js";
import { Secret } from "../../src/core/secret.js";
import { buildPlan } from "../../src/engine/plan.js";
import { ForgeClient } from "../../src/forge/client.js";
import { ResourceReader } from "../../src/resources/context.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox;
beforeAll(async () => {
  world = await sandbox();
});
afterAll(async () => {
  await world.stop();
});

describe("a token without the needed permission", () => {
  it("turns each refused read into an error on its own change, with the request and status", async () => {
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    branch_protection: { main: { enforce_admins: true } }
    invitations: { max_age_days: 30 }
`);
    const loaded = loadDesiredState([path], { cwd: "/", env: {} });
    if (!loaded.ok) throw new Error("config should load");
    const client = new ForgeClient({
      baseUrl: world.url,
      kind: "repository",
      token: new Secret("sandbox-reader", "test"),
      writeIntervalMs: 0,
    });
    const plan = await buildPlan({
      state: loaded.state,
      readers: new Map([["github", new ResourceReader("github", client)]]),
      now: Date.now(),
    });
    expect(plan.errors).toBe(2);
    for (const change of plan.changes) {
      expect(change.error?.status).toBe(403);
      expect(change.error?.request).toMatch(
        /^GET \/repos\/acme\/api\/(branches\/main\/protection|invitations\?per_page=100)$/,
      );
      expect(change.requests).toEqual([]);
    }
  });
});
