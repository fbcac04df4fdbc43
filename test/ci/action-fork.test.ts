import { afterEach, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import { appKeys, appSeedFile, installationToken } from "../helpers/apps.js";
import { call } from "../helpers/sandbox.js";
import { runActionStep, workspace } from "./helpers.js";

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

const protectApi = [
  "repositories:",
  "  - name: acme/api",
  "    branch_protection:",
  "      main: { enforce_admins: true }",
  "",
].join("\n");

/**
 * On a `pull_request` event from a fork the workflow's GITHUB_TOKEN is read-only (GitHub's
 * "Automatic token authentication": "The GITHUB_TOKEN has read-only permissions in pull requests
 * from forked repositories"): an installation token of the github-actions App that may read pull
 * requests but not write them, as GitHub gives it.
 */
const readOnlyToken = installationToken;

describe("the Action on a pull request from a fork", () => {
  it("plans, keeps the plan in the job summary and says in one warning why there is no comment", async () => {
    sandbox = await startSandbox({
      port: 0,
      seed: appSeedFile(appKeys().publicKey, {
        slug: "github-actions",
        permissions: { administration: "read", pull_requests: "read", issues: "read" },
      }),
    });
    const pull = (
      await call(sandbox, "POST", "/repos/acme/api/pulls", {
        token: "sandbox-admin",
        body: { title: "Settings", head: "release", base: "main" },
      })
    ).body as { number: number; head: { sha: string } };
    const run = await runActionStep({
      sandbox,
      cwd: workspace(sandbox, protectApi),
      inputs: { "github-token": await readOnlyToken(sandbox), "gitlab-token": "sandbox-admin" },
      event: {
        name: "pull_request",
        payload: {
          pull_request: {
            number: pull.number,
            head: { sha: pull.head.sha, repo: { full_name: "outside-contractor/api", fork: true } },
          },
        },
      },
    });

    expect(run.code).toBe(0);
    expect(run.outputs["exit-code"]).toBe("2");
    expect(run.summary).toContain("github/acme/api/branch\\_protection/main");
    const annotations = run.log.split("\n").filter((line) => /^::(error|warning)/.test(line));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(
      /^::warning title=forgeplan::could not comment on pull request #1: /,
    );
    expect(annotations[0]).toContain("403");
    const comments = await call(sandbox, "GET", `/repos/acme/api/issues/${pull.number}/comments`, {
      token: "sandbox-admin",
    });
    expect(comments.body).toEqual([]);
  });
});
