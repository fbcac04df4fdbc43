import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox;
let cwd: string;
beforeEach(async () => {
  world = await sandbox({ generate: 5 });
  cwd = mkdtempSync(join(tmpdir(), "forgeplan-export-"));
});
afterEach(async () => {
  await world.stop();
});

/** The placeholders export writes for the demo organization's write-only values, set. */
const placeholders = { NPM_TOKEN: "any", ACME_HOOK_501_SECRET: "any" };

describe("export of a whole owner", () => {
  it("writes every repository and the organization's settings, Actions, secrets' names, rulesets and hooks, and plans as no change once the placeholders are set", async () => {
    const at = ["--sandbox-url", world.url];
    const exported = await runInProcess(["export", "--org", "acme", ...at], { cwd });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("- name: acme/*\n");
    expect(exported.stdout).toContain("organizations:\n  - name: acme\n    settings:\n");
    for (const key of ["teams", "actions", "variables", "secrets", "rulesets", "webhooks"]) {
      expect(exported.stdout).toContain(`\n    ${key}:\n`);
    }
    expect(exported.stdout).toContain("\n    rulesets:\n      acme baseline:");
    expect(exported.stdout).toContain("acme baseline:");
    expect(exported.stdout).toContain("        NPM_TOKEN:\n          value: ${NPM_TOKEN}\n");
    expect(exported.stdout).toContain("        secret: ${ACME_HOOK_501_SECRET}\n");
    writeFileSync(join(cwd, "acme.yaml"), exported.stdout);
    const unset = await runInProcess(["plan", "-c", "acme.yaml", ...at], { cwd });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain("NPM_TOKEN");
    const planned = await runInProcess(["plan", "-c", "acme.yaml", ...at], {
      cwd,
      env: placeholders,
    });
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });

  it("writes a directory of files, one per owner, that plans as no change together", async () => {
    const at = ["--sandbox-url", world.url];
    const exported = await runInProcess(
      ["export", "--org", "acme", "--repo", "octo-admin/dotfiles", "--out", "settings/", ...at],
      { cwd },
    );
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain("forgeplan: exported 2 files to settings/\n");
    expect(readdirSync(join(cwd, "settings")).sort()).toEqual(["acme.yaml", "octo-admin.yaml"]);
    const acme = readFileSync(join(cwd, "settings", "acme.yaml"), "utf8");
    expect(acme).toContain("acme/repo-0005");
    expect(acme).not.toContain("octo-admin/dotfiles");
    // The glob's comment travels with the owner's file; nothing else asked for gitlab.yaml.
    expect(acme).toContain("# acme/* selects");
    expect(
      (await runInProcess(["validate", "-c", "settings"], { cwd, env: placeholders })).code,
    ).toBe(0);
    const planned = await runInProcess(["plan", "-c", "settings", ...at], {
      cwd,
      env: placeholders,
    });
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });

  it("refuses an owner that is not a name", async () => {
    const result = await runInProcess(["export", "--org", "acme/api", "--sandbox-url", world.url], {
      cwd,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "forgeplan: export: --org expects a name such as acme, got 'acme/api'\n",
    );
  });
});
