import { sign } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningSandbox, SandboxStats } from "../../src/sandbox/index.js";
import { APP_ID, appKeys, appSeedFile, INSTALLATION_ID } from "../helpers/apps.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

/** An installation token minted outside forgeplan, as actions/create-github-app-token does. */
async function mintToken(sb: RunningSandbox): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${encode({ alg: "RS256" })}.${encode({ iat: now - 60, exp: now + 540, iss: APP_ID })}`;
  const jwt = `${unsigned}.${sign("sha256", Buffer.from(unsigned), appKeys().privateKey).toString("base64url")}`;
  const minted = await call(sb, "POST", `/app/installations/${INSTALLATION_ID}/access_tokens`, {
    token: jwt,
    body: {},
  });
  expect(minted.status).toBe(201);
  return minted.body.token as string;
}

const REPOSITORIES = 12;

describe("drift --cache with a token GET /user refuses (a workflow's or a minted installation token)", () => {
  it("answers the next run with the same token, and a rotated one, from 304s, and still sees a change", async () => {
    world = await sandbox({ seed: appSeedFile(appKeys().publicKey), generate: REPOSITORIES });
    const sb = world;
    const config = configFile(`version: 1
targets:
  github: { type: repository, base_url: "${sb.url}", token_env: GITHUB_TOKEN }
repositories:
  - name: acme/repo-*
    branch_protection:
      main: { enforce_admins: true }
    webhooks:
      hooks:
        - { url: https://ci.acme.example/hooks/forge, events: [push], content_type: json }
        - { url: https://chat.acme.example/notify, events: [issues], content_type: json }
`);
    const converged = await runInProcess([
      "apply",
      "-c",
      config,
      "--sandbox-url",
      sb.url,
      "--auto-approve",
    ]);
    expect(converged.code).toBe(0);
    const cache = mkdtempSync(join(tmpdir(), "forgeplan-drift-cache-"));
    const drift = async (token: string) => {
      const before = sb.stats();
      const result = await runInProcess(
        ["drift", "-c", config, "--cache", cache, "--format", "json"],
        {
          env: { GITHUB_TOKEN: token },
        },
      );
      return { result, counts: delta(before, sb.stats()) };
    };
    const first = await mintToken(sb);
    const filled = await drift(first);
    expect(filled.result.stderr).not.toContain("error");
    expect(filled.result.code).toBe(0);
    expect(filled.counts.not_modified).toBe(0);
    // The reads a plan makes: the listing, and the protection and the hooks of every repository.
    const reads = 1 + 2 * REPOSITORIES;

    const again = await drift(first);
    expect(again.result.code).toBe(0);
    expect(again.counts.not_modified).toBeGreaterThanOrEqual(0.9 * reads);

    const [hook] = (await call(sb, "GET", "/repos/acme/repo-0003/hooks")).body;
    const edited = await call(sb, "PATCH", `/repos/acme/repo-0003/hooks/${hook.id}`, {
      body: { events: ["push", "release"] },
    });
    expect(edited.status).toBe(200);

    const rotated = await drift(await mintToken(sb));
    expect(rotated.result.code).toBe(2);
    expect(rotated.counts.not_modified).toBeGreaterThanOrEqual(0.9 * reads);
    const plan = JSON.parse(rotated.result.stdout) as {
      changes: Array<{ address: string; action: string }>;
    };
    expect(
      plan.changes.filter((change) => change.action === "update").map((change) => change.address),
    ).toEqual(["github/acme/repo-0003/webhook/https://ci.acme.example/hooks/forge"]);
  });
});

function delta(before: SandboxStats, after: SandboxStats) {
  return {
    requests: after.requests_total - before.requests_total,
    not_modified: after.not_modified_responses - before.not_modified_responses,
  };
}
