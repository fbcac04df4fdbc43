import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commentMarker } from "../../src/report/sticky-comment.js";
import { repoRoot } from "../helpers/cli.js";
import { call } from "../helpers/sandbox.js";
import { runActionStep, SECRET_TOKEN, workspace, world } from "./helpers.js";

const demoBody = readFileSync(join(repoRoot, "examples/forgeplan.yaml"), "utf8").replace(
  /^version: 1$/m,
  "",
);
const tokens = { "github-token": SECRET_TOKEN, "gitlab-token": SECRET_TOKEN };
const fast = { "write-interval": "0" };
type Sandbox = Awaited<ReturnType<typeof world>>;

/** A pull request of acme/api (release into main), as the plan step sees it. */
async function openPull(sandbox: Sandbox): Promise<{ number: number; head: string }> {
  const { body } = await call(sandbox, "POST", "/repos/acme/api/pulls", {
    token: SECRET_TOKEN,
    body: { title: "Settings", head: "release", base: "main" },
  });
  return { number: body.number, head: body.head.sha };
}

async function merge(sandbox: Sandbox, number: number): Promise<string> {
  const { body } = await call(sandbox, "PUT", `/repos/acme/api/pulls/${number}/merge`, {
    token: SECRET_TOKEN,
    body: {},
  });
  return body.sha;
}

function planOnPull(sandbox: Sandbox, cwd: string, pull: { number: number; head: string }) {
  return runActionStep({
    sandbox,
    cwd,
    inputs: tokens,
    event: {
      name: "pull_request",
      payload: { pull_request: { number: pull.number, head: { sha: pull.head } } },
    },
    env: { GITHUB_SHA: pull.head },
  });
}

function applyOnPush(
  sandbox: Sandbox,
  cwd: string,
  sha: string,
  more: Record<string, string> = {},
) {
  return runActionStep({
    sandbox,
    cwd,
    inputs: { ...tokens, ...fast, command: "apply", "allow-delete": "true", ...more },
    event: { name: "push", payload: {} },
    env: { GITHUB_SHA: sha },
  });
}

describe("the Action applies on merge only what the pull request showed", () => {
  it("applies the plan when it is the one the merged pull request's comment carries", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, demoBody);
    const pull = await openPull(sandbox);
    const planned = await planOnPull(sandbox, cwd, pull);
    expect(planned.code).toBe(0);
    const [comment] = (
      await call(sandbox, "GET", `/repos/acme/api/issues/${pull.number}/comments`, {
        token: SECRET_TOKEN,
      })
    ).body;
    expect(comment.body).toMatch(
      new RegExp(
        `^${commentMarker("forgeplan.yaml")}\\n<!-- forgeplan-plan-digest \\{"sha256":"[0-9a-f]{64}","changes":\\{`,
      ),
    );
    const sha = await merge(sandbox, pull.number);

    const applied = await applyOnPush(sandbox, cwd, sha);
    expect(applied.code).toBe(0);
    expect(applied.log).toContain(
      `forgeplan: the plan is the one reviewed on pull request #${pull.number} (`,
    );
    expect(applied.log).toContain("forgeplan apply /");
    expect(applied.outputs["exit-code"]).toBe("0");
    expect(applied.summary).toContain("**Verified:**");
    expect(sandbox.stats().mutations_applied).toBeGreaterThanOrEqual(5);
  });

  it("stops and shows the difference when the plan moved since the review, until a re-plan is accepted", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, demoBody);
    const pull = await openPull(sandbox);
    await planOnPull(sandbox, cwd, pull);
    // Someone edits a hook by hand after the review: the plan on merge is not the reviewed one.
    await call(sandbox, "PATCH", "/repos/acme/api/hooks/1", {
      token: SECRET_TOKEN,
      body: { active: false },
    });
    const sha = await merge(sandbox, pull.number);
    const before = sandbox.stats().mutations_applied;

    const stopped = await applyOnPush(sandbox, cwd, sha);
    expect(stopped.code).toBe(1);
    expect(stopped.outputs).toMatchObject({ "exit-code": "1", "has-changes": "true" });
    expect(sandbox.stats().mutations_applied).toBe(before);
    expect(stopped.log).toContain(
      `::error title=forgeplan apply::the plan at commit ${sha.slice(0, 12)} is not the one reviewed on pull request #${pull.number}: 1 change planned differently: github/acme/api/webhook/https://ci.acme.example/hooks/forge; nothing was applied. Review the new plan in the job summary and plan it on a new pull request, or set accept-replan: true to apply it as it is\n`,
    );
    expect(stopped.log).not.toContain("forgeplan apply /");
    expect(stopped.summary).toContain("### forgeplan apply: stopped");
    expect(stopped.summary).toContain("the plan that was not applied");

    const accepted = await applyOnPush(sandbox, cwd, sha, { "accept-replan": "true" });
    expect(accepted.code).toBe(0);
    expect(sandbox.stats().mutations_applied).toBeGreaterThan(before);
  });

  it("stops when the commit is not the merge of a pull request that was planned", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, demoBody);
    const main = (
      await call(sandbox, "GET", "/repos/acme/api/branches/main", { token: SECRET_TOKEN })
    ).body.commit.sha as string;
    const before = sandbox.stats().mutations_applied;
    const direct = await applyOnPush(sandbox, cwd, main);
    expect(direct.code).toBe(1);
    expect(direct.log).toContain(
      `::error title=forgeplan apply::commit ${main.slice(0, 12)} is not the merge of a pull request, so no reviewed plan belongs to it; nothing was applied (set accept-replan: true to apply a plan nobody reviewed)\n`,
    );
    expect(sandbox.stats().mutations_applied).toBe(before);
    const pull = await openPull(sandbox);
    const sha = await merge(sandbox, pull.number);
    const merged = sandbox.stats().mutations_applied;
    const unplanned = await applyOnPush(sandbox, cwd, sha);
    expect(unplanned.code).toBe(1);
    expect(unplanned.log).toContain(
      `pull request #${pull.number} has no forgeplan plan comment for this comment-key`,
    );
    expect(sandbox.stats().mutations_applied).toBe(merged);
  });
});

describe("comment-key", () => {
  it("keeps one sticky comment per config, each edited in place", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, demoBody);
    const pull = await openPull(sandbox);
    const event = {
      name: "pull_request",
      payload: { pull_request: { number: pull.number, head: { sha: pull.head } } },
    };
    const step = (inputs: Record<string, string>) =>
      runActionStep({ sandbox, cwd, inputs: { ...tokens, ...inputs }, event });
    await step({});
    await step({ "comment-key": "planning" });
    await step({});
    const comments = (
      await call(sandbox, "GET", `/repos/acme/api/issues/${pull.number}/comments`, {
        token: SECRET_TOKEN,
      })
    ).body as Array<{ body: string }>;
    expect(comments.map((comment) => comment.body.split("\n")[0])).toEqual([
      "<!-- forgeplan: forgeplan.yaml -->",
      "<!-- forgeplan: planning -->",
    ]);
  });
});
