import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import { call } from "../helpers/sandbox.js";
import { runActionStep, SECRET_TOKEN, workspace, world } from "./helpers.js";

const tokens = { "github-token": SECRET_TOKEN, "gitlab-token": SECRET_TOKEN };

/** Makes the workspace a git repository whose one commit holds its files; returns the commit. */
function commitWorkspace(dir: string): string {
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", dir, ...args], { stdio: ["ignore", "pipe", "ignore"] })
      .toString("utf8")
      .trim();
  git("init", "--quiet");
  git("add", "--all");
  git("-c", "user.name=test", "-c", "user.email=test@forgeplan.invalid", "commit", "-qm", "base");
  return git("rev-parse", "HEAD");
}

/** The configuration as merged: applied on a push, so the service matches the base commit. */
async function applyBase(sandbox: Awaited<ReturnType<typeof world>>, cwd: string) {
  const applied = await runActionStep({
    sandbox,
    cwd,
    // No pull request was merged here: the base is applied as it is, reviewed or not.
    inputs: { ...tokens, command: "apply", "write-interval": "0", "accept-replan": "true" },
  });
  expect(applied.outputs["exit-code"]).toBe("0");
}

function pullRequest(number: number, base: string) {
  return {
    name: "pull_request",
    payload: { pull_request: { number, head: { sha: "f".repeat(40) }, base: { sha: base } } },
  };
}

async function commentOf(sandbox: Awaited<ReturnType<typeof world>>, number: number) {
  const listed = await call(sandbox, "GET", `/repos/acme/api/issues/${number}/comments`, {
    token: SECRET_TOKEN,
  });
  return (listed.body as Array<{ body: string }>).map((comment) => comment.body);
}

const protections = (count: number, approvals: (index: number) => number) =>
  Array.from({ length: count }, (_, index) =>
    [
      `  - name: acme/repo-${String(index + 1).padStart(4, "0")}`,
      "    branch_protection:",
      "      main:",
      "        required_status_checks: null",
      "        enforce_admins: false",
      `        required_pull_request_reviews: { required_approving_review_count: ${approvals(index)} }`,
      "        restrictions: null",
    ].join("\n"),
  ).join("\n");

describe("the Action on a pull request, by default", () => {
  it("comments exactly the pull request's one-line change and how much it left out", async () => {
    const sandbox = await world(20);
    const number = (
      await call(sandbox, "POST", "/repos/acme/api/issues", {
        token: SECRET_TOKEN,
        body: { title: "PR" },
      })
    ).body.number as number;
    const before = `repositories:\n${protections(20, () => 1)}\n`;
    const cwd = workspace(sandbox, before);
    const base = commitWorkspace(cwd);
    await applyBase(sandbox, cwd);
    const file = join(cwd, "forgeplan.yaml");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        /(repo-0007\n(?:.*\n){4}.*required_approving_review_count: )1/,
        "$12",
      ),
    );
    const run = await runActionStep({
      sandbox,
      cwd,
      inputs: tokens,
      event: pullRequest(number, base),
    });
    expect(run.code).toBe(0);
    expect(run.log).toContain(`--changed-from ${base}`);
    const plan = JSON.parse(readFileSync(run.outputs["plan-json"]!, "utf8")) as Plan;
    expect(plan.partial).toMatchObject({ changed_from: base, unchanged: 19 });
    expect(plan.changes.map((change) => change.address)).toEqual([
      "github/acme/repo-0007/branch_protection/main",
    ]);
    const [comment] = await commentOf(sandbox, number);
    expect(comment).toContain("<b>github/acme/repo-0007</b>: 1 to update");
    expect(comment).toContain(
      "| <code>required\\_pull\\_request\\_reviews.required\\_approving\\_review\\_count</code> | <code>1</code> | <code>2</code> |",
    );
    expect(comment).toContain(`_Left out as unchanged since ${base}: 19 resources.`);
    expect(comment!.match(/<details/g)).toHaveLength(1);
  });

  it("lists every repository a profile edit reaches", async () => {
    const sandbox = await world(12);
    const number = (
      await call(sandbox, "POST", "/repos/acme/api/issues", {
        token: SECRET_TOKEN,
        body: { title: "PR" },
      })
    ).body.number as number;
    const config = (count: number) =>
      [
        "profiles:",
        "  reviewed:",
        "    branch_protection:",
        "      dev:",
        "        required_status_checks: null",
        "        enforce_admins: false",
        `        required_pull_request_reviews: { required_approving_review_count: ${count} }`,
        "        restrictions: null",
        "repositories:",
        "  - name: acme/repo-*",
        "    where: { properties: { team: [team-02, team-05] } }",
        "    profiles: [reviewed]",
        "",
      ].join("\n");
    const cwd = workspace(sandbox, config(1));
    const base = commitWorkspace(cwd);
    await applyBase(sandbox, cwd);
    const file = join(cwd, "forgeplan.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(config(1), config(3)));
    const run = await runActionStep({
      sandbox,
      cwd,
      inputs: tokens,
      event: pullRequest(number, base),
    });
    expect(run.code).toBe(0);
    const [comment] = await commentOf(sandbox, number);
    for (const repo of ["repo-0002", "repo-0005", "repo-0012"]) {
      expect(comment).toContain(`<b>github/acme/${repo}</b>: 1 to update`);
    }
    expect(comment!.match(/<details/g)).toHaveLength(3);
    expect(comment).toContain(
      "_note:_ selected by acme/repo-\\* where team=team-02\\|team-05 (forgeplan.yaml:14)",
    );
  });

  it("plans the whole configuration when the base commit is not in the checkout, or when told", async () => {
    const sandbox = await world();
    const cwd = workspace(
      sandbox,
      "repositories:\n  - name: acme/web\n    branch_protection: { main: null }\n",
    );
    const missing = await runActionStep({
      sandbox,
      cwd,
      inputs: { ...tokens, comment: "false" },
      event: pullRequest(1, "a".repeat(40)),
    });
    expect(missing.code).toBe(0);
    expect(missing.log).toContain(
      `::warning title=forgeplan::the pull request's base commit ${"a".repeat(40)} is not in the checkout (actions/checkout with fetch-depth: 0 fetches it): planning the whole configuration\n`,
    );
    expect(missing.log).not.toContain("--changed-from");
    const base = commitWorkspace(cwd);
    const none = await runActionStep({
      sandbox,
      cwd,
      inputs: { ...tokens, comment: "false", "changed-from": "none" },
      event: pullRequest(1, base),
    });
    expect(none.log).not.toContain("--changed-from");
    const refused = await runActionStep({
      sandbox,
      cwd,
      inputs: { ...tokens, command: "drift", "changed-from": base },
    });
    expect(refused.code).toBe(1);
    expect(refused.log).toContain(
      "input 'changed-from' plans one change whole: use it with command plan, without shard or merge",
    );
  });
});
