import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import { APP_ID, appKeys, appSeedFile, installationToken } from "../helpers/apps.js";
import { call } from "../helpers/sandbox.js";
import { runActionStep, tempDir, workspace } from "./helpers.js";

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

/** A workspace whose github target takes the App from the variables the Action's inputs set. */
function appWorkspace(url: string): string {
  const dir = tempDir("forgeplan-workspace-");
  writeFileSync(
    join(dir, "forgeplan.yaml"),
    [
      "version: 1",
      "targets:",
      `  github: { type: repository, base_url: "${url}", app_id: "\${GITHUB_APP_ID}", private_key_env: GITHUB_APP_PRIVATE_KEY }`,
      "repositories:",
      "  - name: acme/web",
      "    branch_protection:",
      "      main: { enforce_admins: true, required_status_checks: null, required_pull_request_reviews: null, restrictions: null }",
      "",
    ].join("\n"),
  );
  return dir;
}

describe("the Action signed in as a GitHub App", () => {
  it("plans with app-id and private-key, and masks every line of the key first", async () => {
    sandbox = await startSandbox({ port: 0, seed: appSeedFile(appKeys().publicKey) });
    const cwd = appWorkspace(sandbox.url);
    const key = appKeys().privateKey;
    const run = await runActionStep({
      sandbox,
      cwd,
      inputs: { command: "plan", "app-id": String(APP_ID), "private-key": key, comment: "false" },
    });
    expect(run.outputs["exit-code"]).toBe("2");
    expect(sandbox.stats().installation_tokens_issued).toBe(1);
    const lines = key.split("\n").filter((line) => line !== "");
    expect(run.log.startsWith(lines.map((line) => `::add-mask::${line}\n`).join(""))).toBe(true);
    const afterMasks = run.log.slice(lines.map((line) => `::add-mask::${line}\n`).join("").length);
    for (const line of lines.filter((line) => !line.startsWith("-----"))) {
      expect(afterMasks).not.toContain(line);
    }
    expect(afterMasks).not.toMatch(/ghs_[0-9a-f]{8}/);
  });

  it("refuses app-id without private-key in one annotation, before reading anything", async () => {
    sandbox = await startSandbox({ port: 0, seed: appSeedFile(appKeys().publicKey) });
    const run = await runActionStep({
      sandbox,
      cwd: appWorkspace(sandbox.url),
      inputs: { command: "plan", "app-id": String(APP_ID) },
    });
    expect(run.code).toBe(1);
    expect(run.log).toContain(
      "::error title=forgeplan::inputs 'app-id' and 'private-key' go together: give both or neither",
    );
    expect(sandbox.stats().requests_total).toBe(0);
  });
});

describe("the plan comment written with an installation token", () => {
  interface Pull {
    number: number;
    head: { sha: string };
  }

  /** Pull request #1 of acme/api, from `release` into `main`. */
  async function openPull(running: RunningSandbox): Promise<Pull> {
    const answer = await call(running, "POST", "/repos/acme/api/pulls", {
      token: "sandbox-admin",
      body: { title: "Settings", head: "release", base: "main" },
    });
    return answer.body as Pull;
  }

  const pullRequestEvent = (pull: Pull) => ({
    name: "pull_request",
    payload: { pull_request: { number: pull.number, head: { sha: pull.head.sha } } },
  });

  /** A sandbox with App 4242 installed, pull request #1 open, and the Action's inputs for it. */
  async function onPullRequest(
    seed: Parameters<typeof appSeedFile>[1],
    more: Record<string, string> = {},
  ) {
    sandbox = await startSandbox({ port: 0, seed: appSeedFile(appKeys().publicKey, seed) });
    const running = sandbox;
    const pull = await openPull(running);
    const inputs = {
      "github-token": await installationToken(running),
      "gitlab-token": "sandbox-admin",
      ...more,
    };
    return { running, pull, cwd: workspace(running, protectApi), inputs };
  }

  async function planTwice(slug: string, more: Record<string, string> = {}) {
    // The permissions a workflow's token has with `pull-requests: write`, and Administration to plan.
    const permissions = { administration: "read", pull_requests: "write" };
    const { running, pull, cwd, inputs } = await onPullRequest({ slug, permissions }, more);
    const event = pullRequestEvent(pull);
    const runs = [
      await runActionStep({ sandbox: running, cwd, inputs, event }),
      await runActionStep({ sandbox: running, cwd, inputs, event }),
    ];
    const comments = (
      await call(running, "GET", `/repos/acme/api/issues/${pull.number}/comments`, {
        token: "sandbox-admin",
      })
    ).body as Array<{ user: { login: string } }>;
    return { runs, authors: comments.map((comment) => comment.user.login) };
  }

  const protectApi = [
    "repositories:",
    "  - name: acme/api",
    "    branch_protection:",
    "      main: { enforce_admins: true }",
    "",
  ].join("\n");

  it("is found again as github-actions[bot], the account GITHUB_TOKEN writes as", async () => {
    const { runs, authors } = await planTwice("github-actions");
    expect(authors).toEqual(["github-actions[bot]"]);
    expect(runs[0]!.log).toContain("forgeplan: pull-request comment created: ");
    expect(runs[1]!.log).toMatch(/forgeplan: pull-request comment (updated|unchanged): /);
    expect(runs[0]!.log).not.toContain("::warning");
  });

  it("is the reviewed plan for an apply whose github-token is another account's", async () => {
    // The plan step comments with the workflow's own token; the apply needs a token that administers.
    const { runs } = await planTwice("github-actions");
    expect(runs[0]!.code).toBe(0);
    const running = sandbox!;
    const merged = (
      await call(running, "PUT", "/repos/acme/api/pulls/1/merge", {
        token: "sandbox-admin",
        body: {},
      })
    ).body as { sha: string };
    const before = running.stats().mutations_applied;
    const applied = await runActionStep({
      sandbox: running,
      cwd: workspace(running, protectApi),
      inputs: {
        "github-token": "sandbox-admin",
        "gitlab-token": "sandbox-admin",
        command: "apply",
        "write-interval": "0",
      },
      event: { name: "push", payload: {} },
      env: { GITHUB_SHA: merged.sha },
    });
    expect(applied.log).toContain("forgeplan: the plan is the one reviewed on pull request #1 (");
    expect(applied.code).toBe(0);
    expect(running.stats().mutations_applied).toBeGreaterThan(before);
  });

  it("is the reviewed plan for an apply with the same App's token, which reads the merge with Pull requests", async () => {
    // A settings App that plans, comments and applies: Administration write for the protection,
    // Pull requests write for the comment, and read for finding the merged pull request.
    const { running, pull, cwd, inputs } = await onPullRequest(
      { permissions: { administration: "write", pull_requests: "write" } },
      { "comment-author": "settings-bot[bot]" },
    );
    const planned = await runActionStep({
      sandbox: running,
      cwd,
      inputs,
      event: pullRequestEvent(pull),
    });
    expect([planned.code, planned.outputs["exit-code"]]).toEqual([0, "2"]);
    const merged = (
      await call(running, "PUT", `/repos/acme/api/pulls/${pull.number}/merge`, {
        token: "sandbox-admin",
        body: {},
      })
    ).body as { sha: string };
    const applied = await runActionStep({
      sandbox: running,
      cwd,
      inputs: { ...inputs, command: "apply", "write-interval": "0" },
      event: { name: "push", payload: {} },
      env: { GITHUB_SHA: merged.sha },
    });
    expect(applied.log).toContain(
      `forgeplan: the plan is the one reviewed on pull request #${pull.number} (`,
    );
    expect(applied.code).toBe(0);
  });

  it("says which comment-author to set when another App's token writes it, and is found with it", async () => {
    const unnamed = await planTwice("settings-bot");
    expect(unnamed.authors).toEqual(["settings-bot[bot]", "settings-bot[bot]"]);
    expect(unnamed.runs[0]!.log).toContain(
      "::warning title=forgeplan::the comment was written as settings-bot[bot], not github-actions[bot]: set comment-author: settings-bot[bot] so the next plan edits it and the apply on merge finds it\n",
    );
    await sandbox?.stop();
    const named = await planTwice("settings-bot", { "comment-author": "settings-bot[bot]" });
    expect(named.authors).toEqual(["settings-bot[bot]"]);
    expect(named.runs[1]!.log).not.toContain("::warning");
  });
});
