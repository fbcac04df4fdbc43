import { afterEach, describe, expect, it } from "vitest";
import type { Change, Plan } from "../../src/core/plan.js";
import type { RecordedRequest, RunningSandbox, SandboxOptions } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

/**
 * GitLab members (#36, item 5) end to end against the demo world: acme/api has direct members
 * (mona maintainer, octo-reader reporter, hubot developer until 2030-06-30) beside those it
 * inherits from group acme (octo-admin owner, octo-reader guest, octo-dev developer).
 */

let world: RunningSandbox | undefined;
let requests: RecordedRequest[] = [];
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

async function start(options: SandboxOptions = {}): Promise<RunningSandbox> {
  requests = [];
  world = await sandbox({ ...options, onRequest: (request) => requests.push(request) });
  return world;
}

async function plan(path: string, ...flags: string[]) {
  const result = await runInProcess([
    "plan",
    "-c",
    path,
    "--sandbox-url",
    world!.url,
    "--format",
    "json",
    ...flags,
  ]);
  return { code: result.code, plan: JSON.parse(result.stdout) as Plan, stderr: result.stderr };
}

async function apply(path: string, ...flags: string[]) {
  return runInProcess([
    "apply",
    "-c",
    path,
    "--sandbox-url",
    world!.url,
    "--auto-approve",
    ...flags,
  ]);
}

const writes = () => requests.filter((request) => request.method !== "GET");
const named = (plan: Plan, name: string): Change | undefined =>
  plan.changes.find((change) => change.kind === "members" && change.name === name);

describe("members", () => {
  it("changes a level with one PUT and plans no change after it", async () => {
    await start();
    const path = configFile(`version: 1
projects:
  - project: acme/api
    members:
      users:
        mona: developer
`);
    const first = await plan(path);
    expect(first.code).toBe(2);
    expect(named(first.plan, "mona")).toMatchObject({
      action: "update",
      diff: [{ path: "access_level", before: "maintainer", after: "developer" }],
      requests: [{ method: "PUT", path: "/api/v4/projects/acme%2Fapi/members/6", body: { access_level: 30 } }],
    });
    requests = [];
    const applied = await apply(path);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes().map((request) => `${request.method} ${request.path}`)).toEqual([
      "PUT /api/v4/projects/acme%2Fapi/members/6",
    ]);
    const again = await plan(path);
    expect(again.code).toBe(0);
  });
});
