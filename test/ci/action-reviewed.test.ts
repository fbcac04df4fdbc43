import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
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
      `pull request #${pull.number} has no forgeplan plan comment by octo-admin or github-actions[bot] for this comment-key`,
    );
    expect(sandbox.stats().mutations_applied).toBe(merged);
  });

  it("trusts only the plan comment the token's own account wrote, not one someone else posted with the marker", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, demoBody);
    const pull = await openPull(sandbox);
    const comments = `/repos/acme/api/issues/${pull.number}/comments`;
    const marker = commentMarker("forgeplan.yaml");
    // A reader of the repository comments first, with the step's marker.
    const forged = (
      await call(sandbox, "POST", comments, {
        token: "sandbox-reader",
        body: {
          body: `${marker}
looks like a plan`,
        },
      })
    ).body as { id: number };
    await planOnPull(sandbox, cwd, pull);
    const listed = (await call(sandbox, "GET", comments, { token: SECRET_TOKEN })).body as Array<{
      id: number;
      body: string;
      user: { login: string };
    }>;
    // The step wrote its own comment and left the reader's alone.
    expect(listed.map((comment) => [comment.user.login, comment.body.split("\n")[0]])).toEqual([
      ["octo-reader", marker],
      ["octo-admin", marker],
    ]);
    expect(listed[0]!.body).toBe(`${marker}\nlooks like a plan`);

    // The live state moves after the review; the reader learns the digest of the plan it moved to
    // (here from a second step's comment) and puts it in their own comment.
    await call(sandbox, "PATCH", "/repos/acme/api/hooks/1", {
      token: SECRET_TOKEN,
      body: { active: false },
    });
    await runActionStep({
      sandbox,
      cwd,
      inputs: { ...tokens, "comment-key": "scratch" },
      event: {
        name: "pull_request",
        payload: { pull_request: { number: pull.number, head: { sha: pull.head } } },
      },
    });
    const scratch = (
      (await call(sandbox, "GET", comments, { token: SECRET_TOKEN })).body as Array<{
        body: string;
      }>
    ).find((comment) => comment.body.startsWith(commentMarker("scratch")))!;
    const movedDigest = scratch.body.split("\n")[1]!;
    expect(movedDigest).toMatch(/^<!-- forgeplan-plan-digest /);
    await call(sandbox, "PATCH", `/repos/acme/api/issues/comments/${forged.id}`, {
      token: "sandbox-reader",
      body: { body: `${marker}\n${movedDigest}\n` },
    });

    const sha = await merge(sandbox, pull.number);
    const before = sandbox.stats().mutations_applied;
    const stopped = await applyOnPush(sandbox, cwd, sha);
    expect(stopped.code).toBe(1);
    expect(stopped.log).toContain(
      `is not the one reviewed on pull request #${pull.number}: 1 change planned differently: github/acme/api/webhook/https://ci.acme.example/hooks/forge`,
    );
    expect(sandbox.stats().mutations_applied).toBe(before);
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

/** Commits the workspace's files (a git repository from the first call); returns the commit. */
function commit(dir: string, message: string): string {
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", dir, ...args], { stdio: ["ignore", "pipe", "ignore"] })
      .toString("utf8")
      .trim();
  if (!existsSync(join(dir, ".git"))) git("init", "--quiet");
  git("add", "--all");
  git("-c", "user.name=test", "-c", "user.email=test@forgeplan.invalid", "commit", "-qm", message);
  return git("rev-parse", "HEAD");
}

describe("a pull request's change, reviewed and applied on merge", () => {
  it("plans the change the push made, compares it with the comment and applies only it", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, demoBody);
    const base = commit(cwd, "base");
    const settled = await runActionStep({
      sandbox,
      cwd,
      inputs: {
        ...tokens,
        ...fast,
        command: "apply",
        "allow-delete": "true",
        "accept-replan": "true",
      },
    });
    expect(settled.outputs["exit-code"]).toBe("0");
    const file = join(cwd, "forgeplan.yaml");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        "required_approving_review_count: 2",
        "required_approving_review_count: 3",
      ),
    );
    const head = commit(cwd, "three approvals");
    // Drift nobody reviewed, outside the change: the reviewed apply leaves it to the drift check.
    await call(sandbox, "PUT", "/repos/acme/web/branches/main/protection", {
      token: SECRET_TOKEN,
      body: {
        required_status_checks: null,
        enforce_admins: false,
        required_pull_request_reviews: null,
        restrictions: null,
      },
    });
    const pull = await openPull(sandbox);
    const planned = await runActionStep({
      sandbox,
      cwd,
      inputs: tokens,
      event: {
        name: "pull_request",
        payload: {
          pull_request: { number: pull.number, head: { sha: head }, base: { sha: base } },
        },
      },
    });
    expect(planned.log).toContain(`--changed-from ${base}`);
    const [comment] = (
      await call(sandbox, "GET", `/repos/acme/api/issues/${pull.number}/comments`, {
        token: SECRET_TOKEN,
      })
    ).body;
    expect(comment.body).toContain('"partial":true');
    const sha = await merge(sandbox, pull.number);

    const applied = await runActionStep({
      sandbox,
      cwd,
      inputs: { ...tokens, ...fast, command: "apply" },
      event: { name: "push", payload: { before: base } },
      env: { GITHUB_SHA: sha },
    });
    expect(applied.code).toBe(0);
    expect(applied.log).toContain(`--changed-from ${base}`);
    expect(applied.log).toContain(`the plan is the one reviewed on pull request #${pull.number}`);
    expect(applied.log).toContain("--allow-partial");
    const api = await call(sandbox, "GET", "/repos/acme/api/branches/main/protection", {
      token: SECRET_TOKEN,
    });
    expect(api.body.required_pull_request_reviews.required_approving_review_count).toBe(3);
    const web = await call(sandbox, "GET", "/repos/acme/web/branches/main/protection", {
      token: SECRET_TOKEN,
    });
    expect(web.body.enforce_admins.enabled).toBe(false);

    const shallow = await runActionStep({
      sandbox,
      cwd,
      inputs: { ...tokens, ...fast, command: "apply" },
      event: { name: "push", payload: { before: "e".repeat(40) } },
      env: { GITHUB_SHA: sha },
    });
    expect(shallow.log).toContain(
      `showed the plan of its change; planning the same change needs the commit before the push, eeeeeeeeeeee, in the checkout (actions/checkout with fetch-depth: 0)`,
    );
  });
});
