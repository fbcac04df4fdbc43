import { describe, expect, it } from "vitest";
import { configFile } from "../helpers/sandbox.js";
import { gitlabScenario } from "../helpers/gitlab-scenario.js";

/**
 * GitLab project settings (#36, item 1) end to end against the demo world's acme/api: only the
 * fields written are sent, in one PUT; a visibility change waits for --allow-visibility; a default
 * branch that does not exist is refused at plan time; GitLab's refusals (a wider feature than the
 * repository, a bad enum, a Developer's token) are reported as GitLab answered; a Premium field on
 * a Free instance is reported as GitLab's answer leaves it out.
 */

const scenario = gitlabScenario();
const { start, plan, apply, writes } = scenario;

function config(settings: string): string {
  return configFile(`version: 1
projects:
  - project: acme/api
    settings:
${settings
  .trim()
  .split("\n")
  .map((line) => `      ${line}`)
  .join("\n")}
`);
}

describe("project settings", () => {
  it("sends only the changed fields in one PUT, and plans no change after it", async () => {
    await start();
    const path = config(`
description: The public API service
topics: [API, backend, go]
merge_method: ff
squash_option: default_on
build_timeout: 1800
wiki_access_level: disabled
`);
    const first = await plan(path);
    expect(first.code).toBe(2);
    const project = first.plan.changes.find((change) => change.name === "project")!;
    expect(project.action).toBe("update");
    // The description, the topics (api in another case), the squash option and the wiki level
    // are as written already: only what differs is sent.
    expect(project.requests).toEqual([
      {
        method: "PUT",
        path: "/api/v4/projects/acme%2Fapi",
        body: { topics: ["API", "backend", "go"], merge_method: "ff", build_timeout: 1800 },
      },
    ]);
    const applied = await apply(path);
    expect(applied.code).toBe(0);
    expect(writes().map((request) => [request.method, request.path, request.operation])).toEqual([
      ["PUT", "/api/v4/projects/acme%2Fapi", "PUT /api/v4/projects/{id}"],
    ]);
    const again = await plan(path);
    expect(again.code).toBe(0);
    // GitLab kept the existing topic's case.
    const answer = await fetch(`${scenario.world.url}/api/v4/projects/1`, {
      headers: { "PRIVATE-TOKEN": "sandbox-admin" },
    });
    expect(((await answer.json()) as { topics: string[] }).topics).toEqual([
      "api",
      "backend",
      "go",
    ]);
  });

  it("applies a visibility change only with --allow-visibility", async () => {
    await start();
    // Group acme is private, so GitLab takes only private for acme/api: the gate holds the change
    // back without the flag, and with it GitLab's refusal is reported as GitLab answered.
    const path = config("visibility: internal");
    const planned = await plan(path);
    const change = planned.plan.changes.find((one) => one.name === "visibility")!;
    expect(change.gate).toBe("visibility");
    const skipped = await apply(path);
    expect(skipped.code).not.toBe(0);
    expect(writes()).toEqual([]);
    // With the flag it is sent, and GitLab refuses it for the private group, as GitLab answers.
    const refused = await apply(path, "--allow-visibility");
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain(
      "internal is not allowed in a private group.",
    );
  });

  it("refuses at plan time a default branch that does not exist, and switches to one that does", async () => {
    await start();
    const missing = await plan(config("default_branch: trunk"));
    expect(missing.code).toBe(1);
    const error = missing.plan.changes.find((change) => change.name === "default_branch")!.error!;
    expect(error.message).toContain("default_branch trunk does not exist in acme/api");
    expect(error.request).toBe("GET /api/v4/projects/acme%2Fapi/repository/branches/trunk");
    const path = config("default_branch: release/1.x");
    expect((await apply(path)).code).toBe(0);
    expect(writes().map((request) => request.body)).toEqual([{ default_branch: "release/1.x" }]);
    expect((await plan(path)).code).toBe(0);
  });

  it("refuses a feature wider than the repository before sending anything", async () => {
    await start();
    const planned = await plan(config("repository_access_level: private"));
    // merge scenario.requests, forks and builds are enabled live: GitLab would refuse the PUT.
    expect(planned.code).toBe(1);
    const error = planned.plan.changes[0]!.error!;
    expect(error.message).toContain(
      "merge_requests_access_level enabled, forking_access_level enabled, builds_access_level enabled would be wider than repository_access_level private",
    );
  });

  it("reports a Premium field on a Free instance as GitLab's answer leaves it out", async () => {
    await start({ gitlabTier: "free" });
    const planned = await plan(config("allow_pipeline_trigger_approve_deployment: true"));
    expect(planned.code).toBe(1);
    expect(planned.plan.changes[0]!.error!.message).toContain(
      "answered without allow_pipeline_trigger_approve_deployment (GitLab shows allow_pipeline_trigger_approve_deployment only where the tier has it (Premium (protected environments))",
    );
  });
});
