import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { apply, plan } from "../../src/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, sandbox } from "../sandbox/helpers.js";

/**
 * A plan with errors applies nothing, as terraform users expect: a repository the configuration
 * names that does not exist is an error, and the other repository's change waits with it, unless
 * the run accepts a partial apply (--allow-plan-errors, the library's allowPlanErrors).
 */

const CONFIG = `version: 1
repositories:
  - name: acme/ghost
    settings: { description: Never there }
  - name: acme/api
    settings: { description: "The API, reviewed" }
`;

function workspace(): string {
  const cwd = mkdtempSync(join(tmpdir(), "forgeplan-apply-errors-"));
  writeFileSync(join(cwd, "forgeplan.yaml"), CONFIG);
  return cwd;
}

async function description(world: { url: string }): Promise<string> {
  const repo = await call(world as never, "GET", "/repos/acme/api");
  return repo.body.description as string;
}

describe("apply of a plan with an error", () => {
  it("applies nothing and exits 1, and the plan says so", async () => {
    const world = await sandbox();
    const cwd = workspace();
    const planned = await runInProcess(["plan", "--sandbox-url", world.url], { cwd });
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(
      "1 change could not be planned: apply applies nothing while the plan has errors (--allow-plan-errors applies the rest).",
    );
    const applied = await runInProcess(["apply", "--sandbox-url", world.url, "--auto-approve"], {
      cwd,
    });
    expect(applied.code).toBe(1);
    expect(applied.stderr).toBe(
      "forgeplan: apply: 1 change could not be planned (the plan above says why), so nothing was applied; fix it, or pass --allow-plan-errors to apply the rest\n",
    );
    expect(applied.stdout).not.toContain("Apply:");
    expect(await description(world)).toBe("The public API service");
    expect(world.stats().mutations_applied).toBe(0);
  });

  it("with --allow-plan-errors applies the rest, says so, and still exits 1", async () => {
    const world = await sandbox();
    const cwd = workspace();
    const applied = await runInProcess(
      ["apply", "--sandbox-url", world.url, "--auto-approve", "--allow-plan-errors"],
      { cwd },
    );
    expect(applied.stdout).toContain(
      "1 change could not be planned: the rest is applied (--allow-plan-errors).",
    );
    expect(applied.stdout).toContain("Apply: 1 applied, 0 failed, 0 held, 0 skipped.");
    expect(applied.stderr).toBe(
      "forgeplan: apply: 1 change could not be planned, so it was not applied (the plan above says why); the rest was applied (--allow-plan-errors)\n",
    );
    expect(applied.code).toBe(1);
    expect(await description(world)).toBe("The API, reviewed");
  });

  it("from the library: plan-errors, or the rest with allowPlanErrors", async () => {
    const world = await sandbox();
    const cwd = workspace();
    const planned = await plan(["forgeplan.yaml"], { cwd, env: {}, sandboxUrl: world.url });
    if (!planned.ok) throw new Error("the configuration is valid");
    expect(planned.plan.errors).toBe(1);
    const refused = await apply(planned.plan, { cwd, env: {}, sandboxUrl: world.url });
    expect(refused.status).toBe("plan-errors");
    expect(await description(world)).toBe("The public API service");
    const applied = await apply(planned.plan, {
      cwd,
      env: {},
      sandboxUrl: world.url,
      allowPlanErrors: true,
    });
    expect(applied.status).toBe("applied");
    expect(applied.status === "applied" && applied.succeeded).toBe(false);
    expect(await description(world)).toBe("The API, reviewed");
  });
});
