import { afterEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

/**
 * GitLab badges (#37, item 7) against the demo world: acme/api's own badge `coverage` beside group
 * acme's `pipeline`, which the project's listing shows as `kind: group`. A project's authoritative
 * list removes only its own badges; a group's badge is managed in its group's entry; an edit is one
 * PUT in place; GitLab fills the placeholders in what it renders.
 */

let world: RunningSandbox | undefined;
let requests: RecordedRequest[] = [];
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

async function run(command: "plan" | "apply", yaml: string, ...flags: string[]) {
  requests = [];
  const result = await runInProcess([
    command,
    "-c",
    configFile(yaml),
    "--sandbox-url",
    world!.url,
    ...(command === "plan" ? ["--format", "json"] : ["--auto-approve"]),
    ...flags,
  ]);
  return {
    code: result.code,
    plan: command === "plan" ? (JSON.parse(result.stdout) as Plan) : undefined,
  };
}

const sent = () =>
  requests
    .filter((request) => request.method !== "GET")
    .map((request) => `${request.method} ${decodeURIComponent(request.path)}`);

describe("GitLab badges", () => {
  it("removes only a project's own badges under authoritative, and edits one in place", async () => {
    world = await sandbox({ onRequest: (request) => requests.push(request) });
    const yaml = `version: 1
projects:
  - project: acme/api
    badges:
      mode: authoritative
      items:
        docs: { link_url: "https://docs.example.test/%{project_path}", image_url: "https://docs.example.test/badge.svg" }
`;
    const planned = await run("plan", yaml);
    expect(
      planned.plan!.changes.map((change) => [change.address, change.action, change.requests]),
    ).toEqual([
      [
        "gitlab/acme/api/badge/docs",
        "create",
        [
          {
            method: "POST",
            path: "/api/v4/projects/acme%2Fapi/badges",
            body: {
              name: "docs",
              link_url: "https://docs.example.test/%{project_path}",
              image_url: "https://docs.example.test/badge.svg",
            },
          },
        ],
      ],
      [
        "gitlab/acme/api/badge/coverage",
        "delete",
        [{ method: "DELETE", path: "/api/v4/projects/acme%2Fapi/badges/2" }],
      ],
    ]);
    expect((await run("apply", yaml, "--allow-delete")).code).toBe(0);
    expect((await run("plan", yaml)).code).toBe(0);
    const listed = (await (
      await fetch(`${world.url}/api/v4/projects/acme%2Fapi/badges`, {
        headers: { "PRIVATE-TOKEN": "sandbox-admin" },
      })
    ).json()) as Array<Record<string, unknown>>;
    // The group's badge stays, and GitLab renders the placeholders for the project.
    expect(listed.map((badge) => [badge.name, badge.kind, badge.rendered_link_url])).toEqual([
      ["docs", "project", "https://docs.example.test/acme/api"],
      ["pipeline", "group", "https://gitlab.sandbox.test/acme/api/-/pipelines"],
    ]);

    const edit = `version: 1
groups:
  - group: acme
    badges:
      items:
        pipeline: { link_url: "https://ci.example.test/%{project_path}", image_url: "https://ci.example.test/%{project_path}.svg" }
`;
    expect((await run("apply", edit)).code).toBe(0);
    expect(sent()).toEqual(["PUT /api/v4/groups/acme/badges/1"]);
    expect((await run("plan", edit)).code).toBe(0);
  });
});
