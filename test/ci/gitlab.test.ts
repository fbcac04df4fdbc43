import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call as callAs, type RequestOptions } from "../helpers/sandbox.js";
import { SECRET_TOKEN, tempDir, world } from "./helpers.js";

/**
 * `forgeplan ci` in GitLab CI jobs against the sandbox over loopback HTTP, GitLab's predefined
 * variables set as a runner sets them: the merge-request pipeline's one sticky note on !1, the
 * default branch's apply of exactly what that note showed, the scheduled drift check's one issue,
 * the Terraform report, and the token (octo-admin's, the canary SECRET_TOKEN) in none of it.
 */

const MR_HEAD = "4a7c9e2b1d3f5a6c8e0b2d4f6a8c0e2b4d6f8a0c";
const BASE = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432";
const api = "/api/v4/projects/1";
/** The drift issue's iid: the next after the demo's acme/api issues #1–#3 (docs/sandbox.md). */
const DRIFT = 4;

/** The sandbox's API as octo-admin, whose token here is the canary. */
function call(sandbox: RunningSandbox, method: string, path: string, options: RequestOptions = {}) {
  return callAs(sandbox, method, path, { token: SECRET_TOKEN, ...options });
}

function workspace(sandbox: RunningSandbox, description: string, extra = ""): string {
  const dir = tempDir("forgeplan-gitlab-ci-");
  writeFileSync(
    join(dir, "forgeplan.yaml"),
    [
      "version: 1",
      "targets:",
      `  gitlab: { type: gitlab, base_url: "${sandbox.url}" }`,
      "projects:",
      "  - project: acme/api",
      "    settings:",
      `      description: "${description}"`,
      extra,
      "",
    ].join("\n"),
  );
  return dir;
}

type Pipeline = "merge_request" | "default_branch" | "schedule";

/** GitLab's predefined variables of a job of the given pipeline (predefined_variables.md). */
function ciVariables(sandbox: RunningSandbox, pipeline: Pipeline, sha = MR_HEAD) {
  const common = {
    GITLAB_CI: "true",
    CI: "true",
    CI_SERVER_URL: sandbox.url,
    CI_API_V4_URL: `${sandbox.url}/api/v4`,
    CI_PROJECT_ID: "1",
    CI_PROJECT_PATH: "acme/api",
    CI_DEFAULT_BRANCH: "main",
    CI_COMMIT_SHA: sha,
    CI_JOB_URL: `${sandbox.url}/acme/api/-/jobs/77`,
    FORGEPLAN_GITLAB_TOKEN: SECRET_TOKEN,
  };
  switch (pipeline) {
    case "merge_request":
      return {
        ...common,
        CI_PIPELINE_SOURCE: "merge_request_event",
        CI_MERGE_REQUEST_IID: "1",
        CI_MERGE_REQUEST_DIFF_BASE_SHA: BASE,
        CI_COMMIT_BEFORE_SHA: "0000000000000000000000000000000000000000",
      };
    case "default_branch":
      return {
        ...common,
        CI_PIPELINE_SOURCE: "push",
        CI_COMMIT_BRANCH: "main",
        CI_COMMIT_BEFORE_SHA: BASE,
      };
    case "schedule":
      return { ...common, CI_PIPELINE_SOURCE: "schedule", CI_COMMIT_BRANCH: "main" };
  }
}

interface Run {
  code: number;
  log: string;
}

const logs: string[] = [];

async function ci(
  sandbox: RunningSandbox,
  cwd: string,
  pipeline: Pipeline,
  options: { sha?: string; flags?: string[] } = {},
): Promise<Run> {
  const result = await runInProcess(
    ["ci", "-c", "forgeplan.yaml", "--terraform-report", "report.json", ...(options.flags ?? [])],
    { env: ciVariables(sandbox, pipeline, options.sha), cwd },
  );
  const log = `${result.stdout}${result.stderr}`;
  logs.push(log);
  return { code: result.code, log };
}

interface Note {
  id: number;
  body: string;
  author: { username: string };
}

async function notes(sandbox: RunningSandbox): Promise<Note[]> {
  return (await call(sandbox, "GET", `${api}/merge_requests/1/notes?sort=asc`)).body as Note[];
}

async function description(sandbox: RunningSandbox): Promise<string> {
  return ((await call(sandbox, "GET", api)).body as { description: string }).description;
}

async function merge(sandbox: RunningSandbox): Promise<string> {
  const merged = await call(sandbox, "PUT", `${api}/merge_requests/1/merge`, {
    token: SECRET_TOKEN,
  });
  expect(merged.status).toBe(200);
  return (merged.body as { merge_commit_sha: string }).merge_commit_sha;
}

function expectNoCanary(...texts: string[]): void {
  for (const text of texts) expect(text).not.toContain(SECRET_TOKEN);
}

describe("forgeplan ci on GitLab CI", () => {
  it("keeps one plan note on !1, edited in place, with the plan's digest and Terraform report", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, "Managed by forgeplan");

    const first = await ci(sandbox, cwd, "merge_request");
    expect(first.code, first.log).toBe(2);
    expect(first.log).toContain("forgeplan: plan note created on merge request !1: ");
    expect(first.log).toContain(`/acme/api/-/merge_requests/1#note_`);
    // The workspace is not a clone: the merge request's base is not there, so the whole plan.
    expect(first.log).toContain("planning the whole configuration");
    expect(JSON.parse(readFileSync(join(cwd, "report.json"), "utf8"))).toEqual({
      create: 0,
      update: 1,
      delete: 0,
    });
    const [created, ...others] = await notes(sandbox);
    expect(others).toEqual([]);
    expect(created!.author.username).toBe("octo-admin");
    expect(created!.body).toMatch(
      /^<!-- forgeplan: forgeplan.yaml -->\n<!-- forgeplan-plan-digest \{"sha256":"[0-9a-f]{64}"/,
    );
    expect(created!.body).toContain("gitlab/acme/api/project_settings");

    // A second push changes the plan: the same note is edited, no second note appears.
    writeFileSync(
      join(cwd, "forgeplan.yaml"),
      readFileSync(join(cwd, "forgeplan.yaml"), "utf8").replace(
        "Managed by forgeplan",
        "Managed by forgeplan, reviewed",
      ),
    );
    const second = await ci(sandbox, cwd, "merge_request");
    expect(second.code, second.log).toBe(2);
    expect(second.log).toContain("forgeplan: plan note updated on merge request !1: ");
    const after = await notes(sandbox);
    expect(after.map((note) => note.id)).toEqual([created!.id]);
    expect(after[0]!.body).toContain("Managed by forgeplan, reviewed");
    // Someone else's note quoting the marker is not ours, and stays untouched.
    await call(sandbox, "POST", `${api}/merge_requests/1/notes`, {
      token: "sandbox-reader",
      body: { body: "<!-- forgeplan: forgeplan.yaml -->\nnot forgeplan's" },
    });
    const third = await ci(sandbox, cwd, "merge_request");
    expect(third.log).toContain("forgeplan: plan note unchanged on merge request !1");
    expect((await notes(sandbox)).length).toBe(2);
    expectNoCanary(...logs, ...(await notes(sandbox)).map((note) => note.body));
    expectNoCanary(readFileSync(join(cwd, "report.json"), "utf8"));
  });

  it("leaves one note when two pipelines of the merge request race to create it", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, "Managed by forgeplan");
    const runs = await Promise.all([
      ci(sandbox, cwd, "merge_request"),
      ci(sandbox, cwd, "merge_request"),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2]);
    // Whether or not the two created a note each, both end up naming the one that is left.
    const named = runs.map((run) => /plan note \w+ on merge request !1: (\S+)/.exec(run.log)?.[1]);
    const left = await notes(sandbox);
    expect(left).toHaveLength(1);
    expect(left[0]!.body).toContain("Managed by forgeplan");
    expect(named).toEqual([expect.stringMatching(new RegExp(`#note_${left[0]!.id}$`)), named[0]]);
  });

  it("applies on the default branch exactly the plan the merged request's note showed", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, "Managed by forgeplan");
    expect((await ci(sandbox, cwd, "merge_request")).code).toBe(2);
    const mergeSha = await merge(sandbox);

    const applied = await ci(sandbox, cwd, "default_branch", { sha: mergeSha });
    expect(applied.code, applied.log).toBe(0);
    expect(applied.log).toContain("forgeplan: the plan is the one reviewed on merge request !1 (");
    expect(await description(sandbox)).toBe("Managed by forgeplan");
    expectNoCanary(...logs);
  });

  it("refuses a plan that changed after review, and applies nothing", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, "Managed by forgeplan");
    expect((await ci(sandbox, cwd, "merge_request")).code).toBe(2);
    // After review, someone changes the live setting: the plan on merge is not the one reviewed.
    const edited = await call(sandbox, "PUT", api, {
      token: SECRET_TOKEN,
      body: { description: "Edited by hand" },
    });
    expect(edited.status).toBe(200);
    const mergeSha = await merge(sandbox);

    const refused = await ci(sandbox, cwd, "default_branch", { sha: mergeSha });
    expect(refused.code).toBe(1);
    expect(refused.log).toContain(
      `forgeplan: apply: the plan at commit ${mergeSha.slice(0, 12)} is not the one reviewed on merge request !1: 1 change planned differently: gitlab/acme/api/project_settings`,
    );
    expect(refused.log).toContain("pass --accept-replan to apply it as it is");
    expect(await description(sandbox)).toBe("Edited by hand");

    // A commit no merge request made has no reviewed plan: refused too.
    const stray = await ci(sandbox, cwd, "default_branch", { sha: BASE });
    expect(stray.code).toBe(1);
    expect(stray.log).toContain(
      `commit ${BASE.slice(0, 12)} is not the merge of a merge request, so no reviewed plan belongs to it; nothing was applied (pass --accept-replan to apply a plan nobody reviewed)`,
    );
    // --accept-replan applies the plan made now.
    const accepted = await ci(sandbox, cwd, "default_branch", {
      sha: mergeSha,
      flags: ["--accept-replan"],
    });
    expect(accepted.code, accepted.log).toBe(0);
    expect(await description(sandbox)).toBe("Managed by forgeplan");
    expectNoCanary(...logs);
  });

  it("opens one drift issue, updates it while drift stays, closes it once drift is gone", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, "Managed by forgeplan");
    const issues = async () =>
      (await call(sandbox, "GET", `${api}/issues?labels=forgeplan-drift`)).body as Array<{
        iid: number;
        state: string;
        description: string;
        labels: string[];
      }>;

    const first = await ci(sandbox, cwd, "schedule");
    expect(first.code, first.log).toBe(2);
    expect(first.log).toMatch(
      new RegExp(`forgeplan: drift issue #${DRIFT} opened: .*/acme/api/-/issues/${DRIFT}\\b`),
    );
    const [opened, ...none] = await issues();
    expect(none).toEqual([]);
    expect(opened).toMatchObject({ iid: DRIFT, state: "opened", labels: ["forgeplan-drift"] });
    expect(opened!.description).toMatch(/^<!-- forgeplan-drift -->\n/);
    expect(opened!.description).toContain("Managed by forgeplan");

    // The drift changes while it stays: the same issue is edited.
    await call(sandbox, "PUT", api, {
      token: SECRET_TOKEN,
      body: { description: "Drifted again" },
    });
    const second = await ci(sandbox, cwd, "schedule");
    expect(second.code).toBe(2);
    expect(second.log).toContain(`forgeplan: drift issue #${DRIFT} updated`);
    const [updated, ...still] = await issues();
    expect(still).toEqual([]);
    expect(updated!.description).toContain("Drifted again");

    // Drift fixed: the next scheduled run closes the issue with a note.
    const fixed = await runInProcess(["apply", "--auto-approve", "-c", "forgeplan.yaml"], {
      env: { GITLAB_TOKEN: SECRET_TOKEN },
      cwd,
    });
    expect(fixed.code, fixed.stderr).toBe(0);
    const third = await ci(sandbox, cwd, "schedule");
    expect(third.code, third.log).toBe(0);
    expect(third.log).toContain(`forgeplan: drift issue #${DRIFT} closed`);
    const [closed, ...nothing] = await issues();
    expect(nothing).toEqual([]);
    expect(closed!.state).toBe("closed");
    const closing = (await call(sandbox, "GET", `${api}/issues/${DRIFT}/notes`)).body as Note[];
    expect(closing.map((note) => note.body)).toEqual([
      expect.stringMatching(/^No drift at .*: live state matches the desired state again\.$/),
    ]);
    expect(JSON.parse(readFileSync(join(cwd, "report.json"), "utf8"))).toEqual({
      create: 0,
      update: 0,
      delete: 0,
    });
    expectNoCanary(...logs, ...(await issues()).map((issue) => issue.description));
  });

  it("plans the merge request's change from its base, and applies that same change on merge", async () => {
    const sandbox = await world();
    const cwd = workspace(
      sandbox,
      "Base",
      '  - project: acme/web\n    settings:\n      description: "Web"',
    );
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", cwd, ...args], { stdio: ["ignore", "pipe", "ignore"] })
        .toString("utf8")
        .trim();
    const commit = (message: string) => {
      git("add", "--all");
      git(
        "-c",
        "user.name=test",
        "-c",
        "user.email=test@forgeplan.invalid",
        "commit",
        "-qm",
        message,
      );
      return git("rev-parse", "HEAD");
    };
    git("init", "--quiet");
    const base = commit("base");
    const converged = await runInProcess(["apply", "--auto-approve", "-c", "forgeplan.yaml"], {
      env: { GITLAB_TOKEN: SECRET_TOKEN },
      cwd,
    });
    expect(converged.code, converged.stderr).toBe(0);
    // Drift outside the change: the change's plan leaves it to the drift check.
    await call(sandbox, "PUT", "/api/v4/projects/2", { body: { description: "Edited by hand" } });
    const config = join(cwd, "forgeplan.yaml");
    writeFileSync(config, readFileSync(config, "utf8").replace('"Base"', '"Changed"'));
    commit("the merge request's change");

    const env = { CI_MERGE_REQUEST_DIFF_BASE_SHA: base };
    const planned = await runInProcess(
      ["ci", "-c", "forgeplan.yaml", "--terraform-report", "report.json"],
      { env: { ...ciVariables(sandbox, "merge_request"), ...env }, cwd },
    );
    logs.push(planned.stderr);
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stderr).not.toContain("planning the whole configuration");
    const [note] = await notes(sandbox);
    expect(note!.body).toContain('"partial":true');
    expect(note!.body).not.toContain("Edited by hand");
    expect(JSON.parse(readFileSync(join(cwd, "report.json"), "utf8"))).toMatchObject({ update: 1 });

    const mergeSha = await merge(sandbox);
    const applied = await runInProcess(["ci", "-c", "forgeplan.yaml"], {
      env: { ...ciVariables(sandbox, "default_branch", mergeSha), CI_COMMIT_BEFORE_SHA: base },
      cwd,
    });
    logs.push(applied.stderr);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await description(sandbox)).toBe("Changed");
    const web = (await call(sandbox, "GET", "/api/v4/projects/2")).body as { description: string };
    expect(web.description).toBe("Edited by hand");
    expectNoCanary(...logs);
  });

  it("applies the rest of a plan with errors under --allow-plan-errors, and refuses nothing with nothing to apply", async () => {
    const sandbox = await world();
    // acme/ghost does not exist: its change cannot be planned; acme/api's can.
    const cwd = workspace(
      sandbox,
      "Managed by forgeplan",
      '  - project: acme/ghost\n    settings:\n      description: "Ghost"',
    );
    const flags = ["--accept-replan", "--allow-plan-errors"];
    const applied = await ci(sandbox, cwd, "default_branch", { flags });
    expect(applied.code, applied.log).toBe(1);
    expect(applied.log).toContain("gitlab/acme/ghost");
    expect(await description(sandbox)).toBe("Managed by forgeplan");

    // A push no merge request made, with nothing left to apply: no review is needed.
    const settled = workspace(sandbox, "Managed by forgeplan");
    const quiet = await ci(sandbox, settled, "default_branch", { sha: BASE });
    expect(quiet.code, quiet.log).toBe(0);
    expect(quiet.log).not.toContain("nothing was applied");
    expectNoCanary(...logs);
  });

  it("says what is missing outside a GitLab CI job, or without a token, in one line", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, "Managed by forgeplan");
    const outside = await runInProcess(["ci"], { env: {}, cwd });
    expect(outside.code).toBe(1);
    expect(outside.stderr).toBe(
      "forgeplan: ci: not in a GitLab CI job: CI_SERVER_URL (or CI_API_V4_URL) and CI_PROJECT_ID are unset\n",
    );
    const { FORGEPLAN_GITLAB_TOKEN: _token, ...without } = ciVariables(sandbox, "merge_request");
    const tokenless = await runInProcess(["ci"], { env: without, cwd });
    expect(tokenless.code).toBe(1);
    expect(tokenless.stderr).toBe(
      "forgeplan: ci: no token: set the CI/CD variable FORGEPLAN_GITLAB_TOKEN (masked) to a project or group access token with the api scope\n",
    );
  });
});
