import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import { runInProcess } from "../helpers/cli.js";
import { type Refuse, sandboxBehindProxy } from "../helpers/failing-proxy.js";
import { configFile } from "../helpers/sandbox.js";

/**
 * A listing that fails stands for whatever it would have found: a plan never reads as "No changes"
 * for a place it could not list, whatever the configuration asks of it and whatever `--target`
 * narrows the plan to.
 */

const service = sandboxBehindProxy();

const FORBIDDEN = { status: 403, body: { message: "Resource not accessible by integration" } };

async function planThrough(path: string, refuse: Refuse, ...extra: string[]) {
  const url = await service.through(refuse);
  return runInProcess(["plan", "-c", path, "--sandbox-url", url, "--format", "json", ...extra]);
}

const errorsOf = (stdout: string) =>
  (JSON.parse(stdout) as Plan).changes
    .filter((change) => change.error !== undefined)
    .map((change) => change.address);

describe("a repository's hooks that could not be listed", () => {
  it("are an error in authoritative mode even when no hook is listed in the config", async () => {
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    webhooks: { mode: authoritative, hooks: [] }
`);
    const planned = await planThrough(path, (method, url) =>
      method === "GET" && url === "/repos/acme/api/hooks" ? FORBIDDEN : undefined,
    );
    expect(errorsOf(planned.stdout)).toEqual(["github/acme/api/webhook/*"]);
    expect(planned.code).toBe(1);
  });

  it("are an error once, next to the listed hooks' own, in authoritative mode", async () => {
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    webhooks:
      mode: authoritative
      hooks: [{ url: https://ci.acme.example/hooks/forge }]
`);
    const planned = await planThrough(path, (method, url) =>
      method === "GET" && url === "/repos/acme/api/hooks" ? FORBIDDEN : undefined,
    );
    expect(errorsOf(planned.stdout)).toEqual([
      "github/acme/api/webhook/*",
      "github/acme/api/webhook/https://ci.acme.example/hooks/forge",
    ]);
  });

  it("stand for nothing in additive mode, which deletes nothing unlisted", async () => {
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    webhooks: { hooks: [] }
`);
    const planned = await planThrough(path, (method, url) =>
      method === "GET" && url === "/repos/acme/api/hooks" ? FORBIDDEN : undefined,
    );
    expect(errorsOf(planned.stdout)).toEqual([]);
    expect(planned.code).toBe(0);
  });
});

describe("a glob whose repositories could not be listed, under --target", () => {
  const globConfig = () =>
    configFile(`version: 1
repositories:
  - name: acme/*
    branch_protection: { main: { enforce_admins: true } }
`);
  const refuseListing: Refuse = (method, url) =>
    method === "GET" && url === "/orgs/acme/repos" ? FORBIDDEN : undefined;

  it("is still reported when the target names a repository the glob may select", async () => {
    const planned = await planThrough(
      globConfig(),
      refuseListing,
      "--target",
      "github/acme/api/branch_protection/main",
    );
    expect(errorsOf(planned.stdout)).toEqual(["github/acme/*/branch_protection/*"]);
    expect(planned.code).toBe(1);
  });

  it("is not reported when the target reaches another owner only", async () => {
    const planned = await planThrough(
      globConfig(),
      refuseListing,
      "--target",
      "github/other/api/branch_protection/main",
    );
    expect(errorsOf(planned.stdout)).toEqual([]);
    expect(planned.code).toBe(0);
  });
});

describe("a saved plan whose fresh plan could not list", () => {
  it("is refused naming the listing's error, not as a change of configuration", async () => {
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    webhooks: { mode: authoritative, hooks: [] }
`);
    const out = join(mkdtempSync(join(tmpdir(), "forgeplan-saved-")), "plan.json");
    const url = await service.through((method, requested, seen) =>
      method === "GET" && requested === "/repos/acme/api/hooks" && seen === 2
        ? FORBIDDEN
        : undefined,
    );
    const planned = await runInProcess(["plan", "-c", path, "--sandbox-url", url, "--out", out]);
    expect(planned.code).toBe(2);
    const applied = await runInProcess([
      "apply",
      out,
      "--sandbox-url",
      url,
      "--auto-approve",
      "--allow-delete",
    ]);
    expect(applied.code).toBe(1);
    const refusal =
      "it cannot be checked now: GET /repos/acme/api/hooks?per_page=100 → 403: Resource not accessible by integration";
    expect(applied.stderr).toContain(
      `forgeplan: apply: refused github/acme/api/webhook/https://ci.acme.example/hooks/forge: ${refusal}\n`,
    );
  });
});
