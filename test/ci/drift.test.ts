import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { APP_ID, appKeys, appSeedFile, installationToken } from "../helpers/apps.js";
import { runInProcess } from "../helpers/cli.js";
import { call } from "../helpers/sandbox.js";
import { SECRET_TOKEN, tempDir, workspace, world } from "./helpers.js";

const env = { GITHUB_TOKEN: SECRET_TOKEN, GITLAB_TOKEN: SECRET_TOKEN };
const HOOK = "https://ci.acme.example/hooks/forge";
const fleet = [
  "repositories:",
  "  - name: acme/repo-*",
  "    branch_protection:",
  "      main: { enforce_admins: true, required_linear_history: true }",
  "    webhooks:",
  "      hooks:",
  `        - { url: "${HOOK}", events: [push] }`,
  "",
].join("\n");

/** Over REST: the conditional cache answers REST reads; a GraphQL query is never conditional. */
function driftIn(cwd: string, ...flags: string[]) {
  return runInProcess(["drift", "--format", "json", "--reads", "rest", ...flags], { env, cwd });
}

describe("forgeplan drift --cache", () => {
  it("answers ≥ 90 % of an unchanged world's reads from 304s, and still sees a change", async () => {
    const sandbox = await world(30);
    const cwd = workspace(sandbox, fleet);
    const converge = await runInProcess(["apply", "--auto-approve", "--write-interval", "0"], {
      env,
      cwd,
    });
    expect(converge.code).toBe(0);
    const cache = tempDir();

    const first = await driftIn(cwd, "--cache", cache);
    expect(first.code).toBe(0);
    expect(readdirSync(cache).length).toBeGreaterThan(60);
    // Entries are keyed by a hash of the token, never the token itself.
    for (const file of readdirSync(cache)) {
      expect(file).not.toContain(SECRET_TOKEN);
      expect(readFileSync(join(cache, file), "utf8")).not.toContain(SECRET_TOKEN);
    }

    const before = sandbox.stats();
    const second = await driftIn(cwd, "--cache", cache);
    const after = sandbox.stats();
    expect(second.code).toBe(0);
    const reads = after.requests_total - before.requests_total;
    const notModified = after.not_modified_responses - before.not_modified_responses;
    expect(reads).toBeGreaterThan(60);
    expect(notModified / reads).toBeGreaterThanOrEqual(0.9);
    expect(second.stderr).toContain(`forgeplan: ${notModified} of ${reads} requests answered 304`);
    expect((JSON.parse(second.stdout) as Plan).summary["no-op"]).toBe(60);

    const hooks = await call(sandbox, "GET", "/repos/acme/repo-0007/hooks", {
      token: SECRET_TOKEN,
    });
    const hook = hooks.body.find((item: { config: { url: string } }) => item.config.url === HOOK);
    await call(sandbox, "PATCH", `/repos/acme/repo-0007/hooks/${hook.id}`, {
      token: SECRET_TOKEN,
      body: {
        events: ["push", "issues"],
      },
    });
    await call(sandbox, "DELETE", "/repos/acme/repo-0011/branches/main/protection", {
      token: SECRET_TOKEN,
    });
    const changed = await driftIn(cwd, "--cache", cache);
    expect(changed.code).toBe(2);
    const plan = JSON.parse(changed.stdout) as Plan;
    const drifted = plan.changes.filter((change) => change.action !== "no-op");
    expect(drifted.map((change) => [change.address, change.action])).toEqual([
      ["github/acme/repo-0011/branch_protection/main", "create"],
      [`github/acme/repo-0007/webhook/${HOOK}`, "update"],
    ]);
    expect(drifted[1]!.diff).toEqual([
      { path: "events", before: ["issues", "push"], after: ["push"] },
    ]);

    const beforeRefresh = sandbox.stats();
    const refreshed = await driftIn(cwd, "--cache", cache, "--refresh");
    expect(refreshed.code).toBe(2);
    expect(sandbox.stats().not_modified_responses).toBe(beforeRefresh.not_modified_responses);
  });

  it("exits 2 on audit findings alone, where plan exits 0", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, "audits:\n  gists:\n    allow_public: false\n");
    expect((await runInProcess(["plan"], { env, cwd })).code).toBe(0);
    const drift = await runInProcess(["drift"], { env, cwd });
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain("1 audit report.");
  });

  it("keeps one drift issue: opened, left alone while unchanged, updated, then closed", async () => {
    const sandbox = await world();
    const cwd = workspace(
      sandbox,
      "repositories:\n  - name: acme/web\n    branch_protection:\n      main: { enforce_admins: true }\n",
    );
    const report = ["--report-issue", "acme/api", "--write-interval", "0"];
    const opened = await runInProcess(["drift", ...report], { env, cwd });
    expect(opened.code).toBe(2);
    expect(opened.stderr).toBe("forgeplan: drift issue acme/api#1 opened\n");
    const same = await runInProcess(["drift", ...report], { env, cwd });
    expect(same.stderr).toBe("forgeplan: drift issue acme/api#1 unchanged\n");
    await call(sandbox, "PUT", "/repos/acme/web/branches/main/protection", {
      token: SECRET_TOKEN,
      body: {
        required_status_checks: null,
        enforce_admins: false,
        required_pull_request_reviews: null,
        restrictions: null,
        required_linear_history: true,
      },
    });
    const updated = await runInProcess(["drift", ...report], { env, cwd });
    expect(updated.stderr).toBe("forgeplan: drift issue acme/api#1 updated\n");
    const issue = (await call(sandbox, "GET", "/repos/acme/api/issues/1", { token: SECRET_TOKEN }))
      .body;
    expect(issue.body.startsWith("<!-- forgeplan-drift -->\n<!-- forgeplan -->")).toBe(true);
    expect(issue.body).toContain("1 to update");

    expect(
      (await runInProcess(["apply", "--auto-approve", "--write-interval", "0"], { env, cwd })).code,
    ).toBe(0);
    const closed = await runInProcess(["drift", ...report], { env, cwd });
    expect(closed.code).toBe(0);
    expect(closed.stderr).toBe("forgeplan: drift issue acme/api#1 closed\n");
    const after = (await call(sandbox, "GET", "/repos/acme/api/issues/1", { token: SECRET_TOKEN }))
      .body;
    expect(after).toMatchObject({ state: "closed", state_reason: "completed", comments: 1 });
    const quiet = await runInProcess(["drift", ...report], { env, cwd });
    expect(quiet).toMatchObject({ code: 0, stderr: "" });
  });

  it("keeps to the issue its own account opened, not one someone else opened with the marker", async () => {
    const sandbox = await world();
    const cwd = workspace(
      sandbox,
      "repositories:\n  - name: acme/web\n    branch_protection:\n      main: { enforce_admins: true }\n",
    );
    // A reader opens an issue with the drift marker before the first drift check.
    await call(sandbox, "POST", "/repos/acme/api/issues", {
      token: "sandbox-reader",
      body: { title: "drift", body: "<!-- forgeplan-drift -->\nno drift here" },
    });
    const report = ["--report-issue", "acme/api", "--write-interval", "0"];
    const first = await runInProcess(["drift", ...report], { env, cwd });
    expect(first.stderr).toBe("forgeplan: drift issue acme/api#2 opened\n");
    const second = await runInProcess(["drift", ...report], { env, cwd });
    expect(second.stderr).toBe("forgeplan: drift issue acme/api#2 unchanged\n");
    const theirs = (await call(sandbox, "GET", "/repos/acme/api/issues/1", { token: SECRET_TOKEN }))
      .body;
    expect(theirs).toMatchObject({
      body: "<!-- forgeplan-drift -->\nno drift here",
      state: "open",
      user: { login: "octo-reader" },
    });
  });

  it("signed in as an App, finds the issue its bot opened on the next run", async () => {
    const sandbox = await startSandbox({ port: 0, seed: appSeedFile(appKeys().publicKey) });
    try {
      const cwd = tempDir();
      writeFileSync(
        join(cwd, "forgeplan.yaml"),
        [
          "version: 1",
          "targets:",
          `  github: { type: repository, base_url: "${sandbox.url}", app_id: ${APP_ID}, private_key_env: APP_KEY }`,
          "repositories:",
          "  - name: acme/web",
          "    branch_protection:",
          "      main: { enforce_admins: true }",
          "",
        ].join("\n"),
      );
      const appEnv = { APP_KEY: appKeys().privateKey };
      const report = ["drift", "--report-issue", "acme/api", "--write-interval", "0"];
      const first = await runInProcess(report, { env: appEnv, cwd });
      expect(first.stderr).toMatch(/^forgeplan: drift issue acme\/api#\d+ opened\n$/);
      const number = /#(\d+)/.exec(first.stderr)![1];
      const second = await runInProcess(report, { env: appEnv, cwd });
      expect(second.stderr).toBe(`forgeplan: drift issue acme/api#${number} unchanged\n`);
      const issue = (
        await call(sandbox, "GET", `/repos/acme/api/issues/${number}`, { token: "sandbox-admin" })
      ).body;
      expect(issue.user.login).toBe("settings-bot[bot]");
    } finally {
      await sandbox.stop();
    }
  });

  it("warns when another App's installation token, given as a token, opens the issue as its bot", async () => {
    const sandbox = await startSandbox({ port: 0, seed: appSeedFile(appKeys().publicKey) });
    try {
      const token = await installationToken(sandbox);
      const cwd = workspace(
        sandbox,
        "repositories:\n  - name: acme/web\n    branch_protection:\n      main: { enforce_admins: true }\n",
      );
      const opened = await runInProcess(
        ["drift", "--report-issue", "acme/api", "--write-interval", "0"],
        { env: { GITHUB_TOKEN: token }, cwd },
      );
      // An installation token cannot read GET /user: forgeplan takes it for github-actions[bot]'s.
      expect(opened.stderr).toMatch(
        /^forgeplan: drift issue acme\/api#\d+ opened\nforgeplan: warning: the drift issue was opened as settings-bot\[bot\], not github-actions\[bot\], so the next run will not find it: sign the target in as the App/,
      );
    } finally {
      await sandbox.stop();
    }
  });

  it("refuses flags that cannot work together, with one line each", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, "");
    const cases: Array<[string[], string]> = [
      [["--refresh"], "forgeplan: drift: --refresh only means something with --cache DIR\n"],
      [
        ["--report-issue", "not-a-repo"],
        "forgeplan: drift: --report-issue expects OWNER/REPO, got 'not-a-repo'\n",
      ],
      [
        ["--report-issue", "acme/api", "--shard", "1/2"],
        "forgeplan: drift: --report-issue needs the whole plan; with shards, merge their plans (plan --merge) and report from there\n",
      ],
      [["--shard", "3/2"], "forgeplan: drift: --shard expects 1 ≤ K ≤ N, got '3/2'\n"],
    ];
    for (const [flags, message] of cases) {
      expect(await runInProcess(["drift", ...flags], { env, cwd })).toEqual({
        code: 1,
        stdout: "",
        stderr: message,
      });
    }
  });
});
