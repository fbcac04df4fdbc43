import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import { COMMENT_MARKER } from "../../src/render/index.js";
import { commentMarker } from "../../src/report/sticky-comment.js";
import { repoRoot } from "../helpers/cli.js";
import { call } from "../helpers/sandbox.js";
import { runActionStep, SECRET_TOKEN, tempDir, workspace, world } from "./helpers.js";

const demoBody = readFileSync(join(repoRoot, "examples/forgeplan.yaml"), "utf8").replace(
  /^version: 1$/m,
  "",
);
const tokens = { "github-token": SECRET_TOKEN, "gitlab-token": SECRET_TOKEN };
/** The sandbox needs no spacing between writes. */
const fast = { "write-interval": "0" };
const SHA1 = "1111111111111111111111111111111111111111";
const SHA2 = "2222222222222222222222222222222222222222";
const RUN_URL = "https://github.example/acme/api/actions/runs/4242/attempts/1";

function pullRequest(number: number, sha: string) {
  return { name: "pull_request", payload: { pull_request: { number, head: { sha } } } };
}

/** A pull request stands in as an issue: GitHub takes pull-request comments on the issue endpoints. */
async function openPullRequest(sandbox: Awaited<ReturnType<typeof world>>): Promise<number> {
  return (
    await call(sandbox, "POST", "/repos/acme/api/issues", {
      token: SECRET_TOKEN,
      body: { title: "Change settings" },
    })
  ).body.number;
}

async function comments(sandbox: Awaited<ReturnType<typeof world>>, number: number) {
  return (
    await call(sandbox, "GET", `/repos/acme/api/issues/${number}/comments`, { token: SECRET_TOKEN })
  ).body as Array<{
    id: number;
    body: string;
  }>;
}

/** The token appears once, in the mask command that precedes everything, and nowhere else. */
function expectMasked(log: string, files: string[], more: string[] = []): void {
  expect(log.startsWith(`::add-mask::${SECRET_TOKEN}\n`)).toBe(true);
  expect(log.split(SECRET_TOKEN)).toHaveLength(2);
  for (const file of files) expect(readFileSync(file, "utf8")).not.toContain(SECRET_TOKEN);
  for (const text of more) expect(text).not.toContain(SECRET_TOKEN);
}

describe("the Action on a pull request", () => {
  it("creates one sticky comment, then edits it in place on the next push", async () => {
    const sandbox = await world();
    const number = await openPullRequest(sandbox);
    const cwd = workspace(sandbox, demoBody);

    const first = await runActionStep({
      sandbox,
      cwd,
      inputs: tokens,
      event: pullRequest(number, SHA1),
    });
    expect(first.code).toBe(0);
    expect(first.outputs["exit-code"]).toBe("2");
    expect(first.outputs["has-changes"]).toBe("true");
    const plan = JSON.parse(readFileSync(first.outputs["plan-json"]!, "utf8")) as Plan;
    expect(plan.summary).toEqual({ create: 1, update: 3, delete: 2, report: 3, "no-op": 5 });
    expect(first.summary.startsWith(COMMENT_MARKER)).toBe(true);
    expect(first.summary).toContain(`Planned at commit <code>${SHA1}</code>.`);
    expect(first.log).toContain("forgeplan: pull-request comment created");
    const created = await comments(sandbox, number);
    expect(created).toHaveLength(1);
    expect(created[0]!.body.startsWith(`${commentMarker("forgeplan.yaml")}\n`)).toBe(true);
    expect(created[0]!.body).toContain(`Planned at commit <code>${SHA1}</code>.`);
    expect(created[0]!.body).toContain("<b>github/acme/web</b>: 1 to create");

    await call(sandbox, "POST", `/repos/acme/api/issues/${number}/comments`, {
      token: SECRET_TOKEN,
      body: {
        body: `> ${commentMarker("forgeplan.yaml")}\n> a reviewer quoting the plan`,
      },
    });
    const second = await runActionStep({
      sandbox,
      cwd,
      inputs: tokens,
      event: pullRequest(number, SHA2),
    });
    expect(second.code).toBe(0);
    expect(second.log).toContain("forgeplan: pull-request comment updated");
    const after = await comments(sandbox, number);
    expect(after).toHaveLength(2);
    expect(after[0]!.id).toBe(created[0]!.id);
    expect(after[0]!.body).toContain(`Planned at commit <code>${SHA2}</code>.`);
    expect(after[0]!.body).not.toContain(SHA1);
    expect(after[1]!.body).toContain("a reviewer quoting the plan");

    for (const run of [first, second]) {
      expectMasked(
        run.log,
        run.files,
        after.map((comment) => comment.body),
      );
    }
  });

  it("cuts a plan longer than GitHub's 65,536-character limit at a section, pointing to the job summary", async () => {
    const sandbox = await world(60);
    const number = await openPullRequest(sandbox);
    const protection = [
      "        required_status_checks:",
      "          strict: true",
      "          checks: [{ context: ci/build }, { context: ci/lint }, { context: ci/test }]",
      "        enforce_admins: true",
      "        required_pull_request_reviews:",
      "          dismiss_stale_reviews: true",
      "          require_code_owner_reviews: true",
      "          required_approving_review_count: 2",
      "        required_linear_history: true",
      "        required_conversation_resolution: true",
      "        restrictions: null",
    ].join("\n");
    const cwd = workspace(
      sandbox,
      `repositories:\n  - name: acme/repo-*\n    branch_protection:\n      main:\n${protection}\n      dev:\n${protection}\n`,
    );
    const run = await runActionStep({
      sandbox,
      cwd,
      inputs: tokens,
      event: pullRequest(number, SHA1),
    });
    expect(run.code).toBe(0);
    const [comment] = await comments(sandbox, number);
    expect(comment!.body.length).toBeLessThanOrEqual(65_536);
    expect(comment!.body.length).toBeGreaterThan(30_000);
    expect(comment!.body).toMatch(
      new RegExp(
        `_… \\d+ more sections not shown: the plan is longer than GitHub's comment limit; see \\[the full plan\\]\\(<${RUN_URL}>\\)\\._\\n$`,
      ),
    );
    expect(comment!.body.trimEnd().split("\n").at(-3)).toBe("</details>");
    expect(run.summary.length).toBeGreaterThan(65_536);
    expect(run.summary.match(/<details/g)).toHaveLength(60);
    expect(comment!.body.match(/<details/g)!.length).toBeLessThan(60);
  });

  it("leaves the comment off for a shard and posts one comment for the merged shard plans", async () => {
    const sandbox = await world(8);
    const number = await openPullRequest(sandbox);
    const cwd = workspace(
      sandbox,
      demoBody.replace(
        "\nrepositories:\n",
        "\nrepositories:\n  - name: acme/repo-*\n    branch_protection:\n      main: { enforce_admins: true }\n",
      ),
    );
    const plans = join(cwd, "plans");
    mkdirSync(plans);
    for (const shard of ["1/2", "2/2"]) {
      const run = await runActionStep({
        sandbox,
        cwd,
        inputs: { ...tokens, shard },
        event: pullRequest(number, SHA1),
      });
      expect(run.code).toBe(0);
      copyFileSync(run.outputs["plan-json"]!, join(plans, `shard-${shard[0]}.json`));
    }
    expect(await comments(sandbox, number)).toHaveLength(0);
    const merged = await runActionStep({
      sandbox,
      cwd,
      inputs: { ...tokens, merge: "plans" },
      event: pullRequest(number, SHA1),
    });
    expect(merged.code).toBe(0);
    const whole = await runActionStep({
      sandbox,
      cwd,
      inputs: { ...tokens, comment: "false" },
      event: pullRequest(number, SHA1),
    });
    const summaryTable = (text: string) => text.split("\n").slice(0, 9).join("\n");
    expect(summaryTable(merged.summary)).toBe(summaryTable(whole.summary));
    expect(await comments(sandbox, number)).toHaveLength(1);
  });
});

describe("the Action's errors, outputs and commands", () => {
  it("turns config errors into annotations at file, line and column, and fails the step", async () => {
    const sandbox = await world();
    const cwd = workspace(
      sandbox,
      "repositories:\n  - name: acme/api\n    branch_protection:\n      main:\n        enforce_admins: maybe\n",
    );
    const run = await runActionStep({ sandbox, cwd, inputs: tokens });
    expect(run.code).toBe(1);
    expect(run.log).toContain(
      '::error file=forgeplan.yaml,line=9,col=25,title=forgeplan config::repositories[0].branch_protection.main.enforce_admins: expected true or false or null, found the string "maybe"\n',
    );
    expect(run.outputs).toEqual({ "exit-code": "1", "has-changes": "false" });
    expectMasked(run.log, run.files);
  });

  it("annotates a change that could not be planned, still commenting the rest of the plan", async () => {
    const sandbox = await world();
    const number = await openPullRequest(sandbox);
    const cwd = workspace(
      sandbox,
      "repositories:\n  - name: acme/api\n    branch_protection:\n      nope: { enforce_admins: true }\n",
    );
    const run = await runActionStep({
      sandbox,
      cwd,
      inputs: tokens,
      event: pullRequest(number, SHA1),
    });
    expect(run.code).toBe(1);
    expect(run.outputs["exit-code"]).toBe("1");
    expect(run.log).toMatch(
      /::error title=forgeplan::github\/acme\/api\/branch_protection\/nope: GET \/repos\/acme\/api\/branches\/nope\/protection → 404: .*\n/,
    );
    expect((await comments(sandbox, number))[0]!.body).toContain("could not be planned");
  });

  it("ends a failed apply with an annotation that says which change failed and why", async () => {
    const sandbox = await world();
    const cwd = workspace(
      sandbox,
      "repositories:\n  - name: acme/web\n    branch_protection:\n      main:\n        restrictions: { users: [nobody-here], teams: [] }\n",
    );
    const run = await runActionStep({
      sandbox,
      cwd,
      inputs: { ...tokens, ...fast, command: "apply", "accept-replan": "true" },
    });
    expect(run.code).toBe(1);
    expect(run.log).toContain(
      "::error title=forgeplan::apply: 1 change failed: github/acme/web/branch_protection/main: PUT /repos/acme/web/branches/main/protection → 422: Validation Failed: restrictions.users: user 'nobody-here' does not exist\n",
    );
  });

  it("refuses bad inputs with an annotation before reading anything", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, "");
    const before = sandbox.stats().requests_total;
    const run = await runActionStep({
      sandbox,
      cwd,
      inputs: { ...tokens, "allow-delete": "yes" },
    });
    expect(run.code).toBe(1);
    expect(run.log).toBe(
      `::add-mask::${SECRET_TOKEN}\n::error title=forgeplan::input 'allow-delete' must be true or false, got 'yes'\n`,
    );
    expect(sandbox.stats().requests_total).toBe(before);
  });

  it("fences forgeplan's own output so no line of it can act as a workflow command", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, demoBody);
    const run = await runActionStep({ sandbox, cwd, inputs: tokens });
    const fence = /::stop-commands::([0-9a-f]{32})\n/.exec(run.log);
    expect(fence).not.toBeNull();
    expect(run.log).toContain(`::${fence![1]}::\n`);
    expect(run.log.indexOf(fence![0])).toBeLessThan(run.log.indexOf("Plan: "));
    expect(run.log.indexOf(`::${fence![1]}::`)).toBeGreaterThan(run.log.indexOf("Plan: "));
  });

  it("applies on push with accept-replan: plans, applies with the report in the job summary, then has nothing to do", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, demoBody);
    const inputs = {
      ...tokens,
      ...fast,
      command: "apply",
      "allow-delete": "true",
      "accept-replan": "true",
    };
    const applied = await runActionStep({ sandbox, cwd, inputs });
    expect(applied.code).toBe(0);
    expect(applied.outputs).toMatchObject({ "exit-code": "0", "has-changes": "true" });
    expect(applied.summary).toContain("forgeplan apply");
    expect(applied.summary).toContain("**Verified:**");
    const again = await runActionStep({ sandbox, cwd, inputs });
    expect(again.code).toBe(0);
    expect(again.outputs).toMatchObject({ "exit-code": "0", "has-changes": "false" });
    expect(again.log).not.toContain("forgeplan apply -c");
    expectMasked(applied.log, applied.files);
  });

  it("fails the step on drift, reports it in an issue, and closes the issue once drift is gone", async () => {
    const sandbox = await world();
    const cwd = workspace(
      sandbox,
      "repositories:\n  - name: acme/web\n    branch_protection:\n      main: { enforce_admins: true }\n",
    );
    const cache = tempDir();
    const drift = { ...tokens, ...fast, command: "drift", cache, "report-issue": "acme/api" };
    const found = await runActionStep({ sandbox, cwd, inputs: drift });
    expect(found.code).toBe(1);
    expect(found.outputs).toMatchObject({ "exit-code": "2", "has-changes": "true" });
    expect(found.log).toContain("forgeplan: drift issue acme/api#1 opened");
    // The failed step says why in an annotation.
    expect(found.log).toContain(
      "::error title=forgeplan drift::live state drifted from the desired state: 1 to create, 0 to update, 0 to delete, 0 to report, 0 unchanged; the job summary has the plan\n",
    );
    const issue = await call(sandbox, "GET", "/repos/acme/api/issues/1", { token: SECRET_TOKEN });
    expect(issue.body.body).toContain("<b>github/acme/web</b>: 1 to create");
    await runActionStep({
      sandbox,
      cwd,
      inputs: { ...tokens, ...fast, command: "apply", "accept-replan": "true" },
    });
    const clean = await runActionStep({ sandbox, cwd, inputs: drift });
    expect(clean.outputs["exit-code"]).toBe("0");
    expect(clean.code).toBe(0);
    expect(clean.log).toContain("forgeplan: drift issue acme/api#1 closed");
    const closed = await call(sandbox, "GET", "/repos/acme/api/issues/1", { token: SECRET_TOKEN });
    expect(closed.body.state).toBe("closed");
    expectMasked(found.log, found.files);
  });
});

describe("the Action applying a plan with errors", () => {
  // acme/ghost does not exist (and is not created): its change is an error; acme/web's is fine.
  const body = `repositories:
  - name: acme/ghost
    settings: { has_wiki: false }
  - name: acme/web
    settings: { has_wiki: false }
`;
  const wiki = async (sandbox: Awaited<ReturnType<typeof world>>) =>
    (await call(sandbox, "GET", "/repos/acme/web", { token: SECRET_TOKEN })).body.has_wiki;

  it("applies nothing, unless allow-plan-errors accepts a partial apply", async () => {
    // Without the input acme/web keeps its wiki; with it, acme/web's change is applied.
    for (const [allow, wikiAfter] of [
      ["false", true],
      ["true", false],
    ] as const) {
      const sandbox = await world();
      const run = await runActionStep({
        sandbox,
        cwd: workspace(sandbox, body),
        inputs: {
          ...tokens,
          ...fast,
          command: "apply",
          "accept-replan": "true",
          "allow-plan-errors": allow,
        },
      });
      expect(run.code).toBe(1);
      expect(await wiki(sandbox)).toBe(wikiAfter);
    }
  });
});
