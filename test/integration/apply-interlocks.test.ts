import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import { demoWorld, type RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox;
beforeEach(async () => {
  // The demo world plus an organization migration that is exporting acme/web with its lock on.
  const seed = configFile(
    JSON.stringify({
      ...demoWorld,
      migrations: [
        ...(demoWorld.migrations ?? []),
        {
          id: 3,
          owner: "acme",
          state: "exporting",
          lock_repositories: true,
          repositories: ["acme/web"],
          created_at: "2026-05-01T12:00:00Z",
          updated_at: "2026-05-01T12:05:00Z",
        },
      ],
    }),
    "seed.yaml",
  );
  world = await sandbox({ seed });
});
afterEach(async () => {
  await world.stop();
});

const config = configFile(`version: 1
repositories:
  - name: acme/web
    branch_protection:
      main: { enforce_admins: true }
  - name: acme/api
    branch_protection:
      main: { enforce_admins: true }
audits:
  migrations:
    - { org: acme, id: 3 }
`);
const at = () => ["--sandbox-url", world.url];
const held = "acme/web is locked by migration 3 (exporting) with lock_repositories";

it("holds back changes to repositories a running migration locks, and applies the rest", async () => {
  const planned = await runInProcess(["plan", "-c", config, ...at(), "--format", "json"]);
  const plan = JSON.parse(planned.stdout) as Plan;
  expect(plan.changes.find((c) => c.scope === "acme/web")?.held).toBe(held);

  const applied = await runInProcess(["apply", "-c", config, ...at(), "--auto-approve"]);
  // What a lock held was planned and not applied: exit 1, saying so (docs/commands.md, "Exit codes").
  expect(applied.code).toBe(1);
  expect(applied.stderr).toBe(`forgeplan: apply: 1 change held: ${held}\n`);
  expect(applied.stdout).toContain("Apply: 1 applied, 0 failed, 1 held, 0 skipped.");
  expect(applied.stdout).toContain(`github/acme/web/branch_protection/main (create): ${held}`);
  expect(world.stats().mutations_applied).toBe(1);
  const web = await fetch(`${world.url}/repos/acme/web/branches/main/protection`, {
    headers: { Authorization: "Bearer sandbox-admin" },
  });
  expect(web.status).toBe(404);
});

it("holds the locked change of a saved plan too", async () => {
  const out = join(dirname(config), "locked-plan.json");
  await runInProcess(["plan", "-c", config, ...at(), "--out", out]);
  expect(JSON.parse(readFileSync(out, "utf8")).changes[0].held).toBe(held);
  const applied = await runInProcess(["apply", out, ...at(), "--auto-approve"]);
  expect(applied.code).toBe(1);
  expect(applied.stdout).toContain("Apply: 1 applied, 0 failed, 1 held, 0 skipped.");
  expect(world.stats().mutations_applied).toBe(1);
});
