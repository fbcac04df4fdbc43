import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Plan } from "../../src/core/plan.js";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";
import { placeholdersOf } from "../helpers/placeholders.js";

/**
 * GitLab labels (#37, item 3) against the demo world: group acme's `bug` and `documentation`,
 * subgroup acme/platform's `infra`, and acme/api's own `enhancement` (priority 1, on an open issue
 * and the open merge request !2), `needs-triage` (made as `orange`) and `legacy` (`#F00`). A rename by
 * `previously` is one PUT with `new_name` and keeps the label on its issues and merge requests; a
 * group's label is never created, written or deleted through a project; export plans as no change.
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
    stderr: result.stderr,
    plan: command === "plan" ? (JSON.parse(result.stdout) as Plan) : undefined,
  };
}

const writes = () =>
  requests
    .filter((request) => request.method !== "GET")
    .map((request) => `${request.method} ${decodeURIComponent(request.path)}`);

async function get<T>(path: string): Promise<T> {
  const answer = await fetch(`${world!.url}${path}`, {
    headers: { "PRIVATE-TOKEN": "sandbox-admin" },
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as T;
}

interface Item {
  title: string;
  labels: string[];
}

describe("GitLab labels", () => {
  it("renames a label in place: its issues and merge requests keep it", async () => {
    world = await sandbox({ onRequest: (request) => requests.push(request) });
    const before = await get<Array<{ id: number; name: string }>>(
      "/api/v4/projects/acme%2Fapi/labels",
    );
    const enhancement = before.find((label) => label.name === "enhancement")!;
    const yaml = `version: 1
projects:
  - project: acme/api
    labels:
      items:
        feature: { previously: [enhancement], color: red, priority: 2 }
`;
    const planned = await run("plan", yaml);
    expect(
      planned.plan!.changes.map((change) => [change.address, change.action, change.requests]),
    ).toEqual([
      [
        "gitlab/acme/api/gitlab_label/feature",
        "update",
        [
          {
            method: "PUT",
            path: `/api/v4/projects/acme%2Fapi/labels/${enhancement.id}`,
            body: { new_name: "feature", color: "red", priority: 2 },
          },
        ],
      ],
    ]);
    expect((await run("apply", yaml)).code).toBe(0);
    expect(writes()).toEqual([`PUT /api/v4/projects/acme/api/labels/${enhancement.id}`]);
    // Read back over the API: the same label, renamed, on the same issue and merge request.
    const issues = await get<Item[]>("/api/v4/projects/acme%2Fapi/issues?labels=feature");
    expect(issues.map((issue) => [issue.title, issue.labels])).toEqual([
      ["Paginate the orders listing", ["feature"]],
    ]);
    // !2 carries it (the demo's !1, forgeplan ci's, carries none).
    const mergeRequests = await get<Item[]>(
      "/api/v4/projects/acme%2Fapi/merge_requests?labels=feature",
    );
    expect(mergeRequests.map((mr) => [mr.title, mr.labels])).toEqual([
      ["Paginate the orders listing", ["feature"]],
    ]);
    const after = await get<Array<Record<string, unknown>>>(
      "/api/v4/projects/acme%2Fapi/labels?with_counts=true",
    );
    // GitLab stores `red` as #FF0000 (Gitlab::Color.of).
    expect(after.find((label) => label.id === enhancement.id)).toMatchObject({
      name: "feature",
      color: "#FF0000",
      priority: 2,
      is_project_label: true,
      open_issues_count: 1,
      open_merge_requests_count: 1,
    });
    expect(after.some((label) => label.name === "enhancement")).toBe(false);
    // `red` and #FF0000 are one colour: no perpetual diff.
    expect((await run("plan", yaml)).plan!.changes.map((change) => change.action)).toEqual([
      "no-op",
    ]);
  });

  it("compares colours as GitLab stores them: a name, three digits or six in any case are one", async () => {
    world = await sandbox();
    // Live: enhancement #5CB85C, needs-triage #FFA500 (made as `orange`), legacy #F00.
    const same = `version: 1
projects:
  - project: acme/api
    labels:
      items:
        enhancement: { color: 5cb85c }
        needs-triage: { color: Orange }
        legacy: { color: red }
`;
    const planned = await run("plan", same);
    expect(planned.code).toBe(0);
    expect(planned.plan!.changes.map((change) => change.action)).toEqual([
      "no-op",
      "no-op",
      "no-op",
    ]);
    const other = same.replace("Orange", "'#ffa501'").replace("red", "'#ff0001'");
    const changed = (await run("plan", other)).plan!.changes;
    expect(changed.map((change) => [change.name, change.action, change.diff])).toEqual([
      ["enhancement", "no-op", []],
      ["needs-triage", "update", [{ path: "color", before: "#ffa500", after: "#ffa501" }]],
      ["legacy", "update", [{ path: "color", before: "#ff0000", after: "#ff0001" }]],
    ]);
  });

  it("never re-creates, writes or deletes a group's label in its projects", async () => {
    world = await sandbox({ onRequest: (request) => requests.push(request) });
    const yaml = `version: 1
projects:
  - project: acme/api
    labels:
      mode: authoritative
      items:
        bug: { color: "#000000" }
        enhancement: {}
`;
    const planned = await run("plan", yaml);
    expect(planned.code).not.toBe(0);
    const changes = planned.plan!.changes;
    const bug = changes.find((change) => change.address === "gitlab/acme/api/gitlab_label/bug")!;
    expect(bug.requests).toEqual([]);
    expect(bug.error?.message).toMatch(
      /"bug" is a label acme\/api inherits from a group above it; a project cannot create it .*manage it in that group's entry/,
    );
    // Authoritative removes the project's own labels only: never bug or documentation (acme's).
    expect(
      changes
        .filter((change) => change.action === "delete")
        .map((change) => change.name)
        .sort(),
    ).toEqual(["legacy", "needs-triage"]);
    expect(changes.flatMap((change) => change.requests).map((r) => r.method)).toEqual([
      "DELETE",
      "DELETE",
    ]);
    // A plan with an error applies nothing.
    expect((await run("apply", yaml, "--allow-delete")).code).toBe(1);
    expect(writes()).toEqual([]);
    // Without the group's label, authoritative mode deletes only the project's own.
    const own = yaml.replace(/ {8}bug: .*\n/, "");
    expect((await run("apply", own, "--allow-delete")).code).toBe(0);
    expect(writes().map((write) => write.replace(/\d+$/, "N"))).toEqual([
      "DELETE /api/v4/projects/acme/api/labels/N",
      "DELETE /api/v4/projects/acme/api/labels/N",
    ]);
    const listed = await get<Array<{ name: string; is_project_label: boolean }>>(
      "/api/v4/projects/acme%2Fapi/labels",
    );
    expect(listed.map((label) => [label.name, label.is_project_label])).toEqual([
      ["bug", false],
      ["documentation", false],
      ["enhancement", true],
    ]);
    // The deleted labels left the issues that carried them; the group's `bug` stayed on them.
    const issues = await get<Item[]>("/api/v4/projects/acme%2Fapi/issues?state=all");
    expect(issues.map((issue) => issue.labels)).toEqual([["bug"], ["enhancement"], ["bug"]]);

    // The group's label is managed in the group's entry, and its projects see the change.
    const group = `version: 1
groups:
  - group: acme
    labels:
      items:
        bug: { color: "#000000", description: "Broken" }
`;
    expect((await run("apply", group)).code).toBe(0);
    expect(writes()).toEqual([expect.stringMatching(/^PUT \/api\/v4\/groups\/acme\/labels\/\d+$/)]);
    const seen = await get<Array<Record<string, unknown>>>("/api/v4/projects/acme%2Fapi/labels");
    expect(seen.find((label) => label.name === "bug")).toMatchObject({
      color: "#000000",
      description: "Broken",
      is_project_label: false,
    });
  });

  it("refuses in a subgroup a label of a group above it, and creates one of its own", async () => {
    world = await sandbox({ onRequest: (request) => requests.push(request) });
    const yaml = `version: 1
groups:
  - group: acme/platform
    labels:
      items:
        documentation: { color: "#ffffff" }
        runbook: { color: "#abc", description: "Operations" }
`;
    const planned = await run("plan", yaml);
    const byName = Object.fromEntries(planned.plan!.changes.map((change) => [change.name, change]));
    expect(byName.documentation!.error?.message).toMatch(/a group cannot create it/);
    expect(byName.runbook!.requests).toEqual([
      {
        method: "POST",
        path: "/api/v4/groups/acme%2Fplatform/labels",
        body: { name: "runbook", color: "#abc", description: "Operations" },
      },
    ]);
  });

  it("exports the demo group's labels, which plan as no change", async () => {
    world = await sandbox();
    const out = configFile("", "acme-export.yaml");
    const exported = await runInProcess([
      "export",
      "--group",
      "acme",
      "--sandbox-url",
      world.url,
      "--out",
      out,
    ]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    const text = readFileSync(out, "utf8");
    const file = parse(text) as {
      groups: Array<{ group: string; labels?: unknown }>;
      projects: Array<{ project: string; labels?: unknown }>;
    };
    expect(file.groups.find((entry) => entry.group === "acme")!.labels).toEqual({
      mode: "additive",
      items: {
        bug: { color: "#d9534f", description: "Something is broken" },
        documentation: { color: "#f0ad4e" },
      },
    });
    expect(file.groups.find((entry) => entry.group === "acme/platform")!.labels).toEqual({
      mode: "additive",
      items: { infra: { color: "#008080" } },
    });
    expect(file.projects.find((entry) => entry.project === "acme/api")!.labels).toEqual({
      mode: "additive",
      items: {
        enhancement: { color: "#5CB85C", description: "Enhancement proposal", priority: 1 },
        legacy: { color: "#F00", description: "Kept for old issues" },
        "needs-triage": { color: "#FFA500" },
      },
    });
    // A project that has only its groups' labels exports none.
    expect(file.projects.find((entry) => entry.project === "acme/platform/infra")!.labels).toBe(
      undefined,
    );
    // The demo's hooks export their write-only tokens as placeholders to fill.
    const planned = await runInProcess(
      ["plan", "-c", out, "--sandbox-url", world.url, "--format", "json"],
      { env: placeholdersOf(text) },
    );
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout) as Plan;
    expect(plan.changes.filter((change) => change.action !== "no-op")).toEqual([]);
    expect(plan.changes.some((change) => change.kind === "gitlab_label")).toBe(true);
  });
});
