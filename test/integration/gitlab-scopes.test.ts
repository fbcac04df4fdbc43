import { parse } from "yaml";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { repoRoot, runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

/**
 * GitLab's scopes end to end (#40): a configuration with a GitHub and a GitLab target planned in one
 * run, project globs over a group and its subgroups with exclude, project_defaults and
 * project_profiles, --target, and export --group over subgroups planning as no change.
 */

let world: RunningSandbox;
let requests: RecordedRequest[];
beforeEach(async () => {
  requests = [];
  world = await sandbox({ onRequest: (request) => requests.push(request) });
});
afterEach(async () => {
  await world.stop();
});

const EXAMPLE = join(repoRoot, "examples", "gitlab.yaml");
const at = () => ["--sandbox-url", world.url];

async function planJson(path: string, ...flags: string[]): Promise<{ code: number; plan: Plan }> {
  const result = await runInProcess(["plan", "-c", path, ...at(), "--format", "json", ...flags]);
  return { code: result.code, plan: JSON.parse(result.stdout) as Plan };
}

const summary = (plan: Plan) => plan.changes.map((change) => `${change.action} ${change.address}`);

describe("a configuration with a GitHub and a GitLab target", () => {
  it("plans both in one run, each project of a glob below the group listed once", async () => {
    const { code, plan } = await planJson(EXAMPLE);
    expect(code).toBe(2);
    // A glob's projects in the order GitLab lists them (newest first), as a glob's repositories are.
    expect(summary(plan)).toEqual([
      "update github/acme/web/settings/repository",
      "no-op gitlab/acme/platform/infra/board/Legacy triage",
      "delete gitlab/acme/api/board/Legacy triage",
      "no-op gitlab/acme/web/board/Old sprint",
      "delete gitlab/acme/epic_link/1-2",
    ]);
    const listings = requests.filter(
      (request) =>
        request.method === "GET" && request.path.startsWith("/api/v4/groups/acme/projects"),
    );
    expect(listings.map((request) => request.path)).toEqual([
      "/api/v4/groups/acme/projects?with_shared=false&include_subgroups=true&per_page=100",
    ]);
  });

  it("applies both, and the plan after it has nothing left", async () => {
    const applied = await runInProcess([
      "apply",
      "-c",
      EXAMPLE,
      ...at(),
      "--auto-approve",
      "--allow-delete",
    ]);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    const again = await planJson(EXAMPLE);
    expect(again.code).toBe(0);
  });

  it("plans only GitLab's part under --target 'gitlab/*', reading nothing of GitHub", async () => {
    const { code, plan } = await planJson(EXAMPLE, "--target", "gitlab/*");
    expect(code).toBe(2);
    expect(plan.changes.every((change) => change.target === "gitlab")).toBe(true);
    expect(requests.some((request) => request.path.startsWith("/repos/"))).toBe(false);
  });
});

describe("project globs", () => {
  it("keep * within its group and take subgroups with **, leaving out what exclude names", async () => {
    const path = configFile(`version: 1
projects:
  - project: acme/*
    exclude: [acme/web]
    boards_absent: [{ name: Nothing here }]
  - project: acme/platform/*
    boards_absent: [{ name: Nor here }]
`);
    const { plan } = await planJson(path);
    expect(plan.changes.map((change) => change.address)).toEqual([
      "gitlab/acme/api/board/Nothing here",
      "gitlab/acme/platform/infra/board/Nor here",
    ]);
    // acme's projects are listed once, with its subgroups' since one glob reaches below it.
    const listed = requests.filter((request) => /\/groups\/[^/]+\/projects/.test(request.path));
    expect(listed.map((request) => request.path.split("?")[0])).toEqual([
      "/api/v4/groups/acme/projects",
      "/api/v4/groups/acme%2Fplatform/projects",
    ]);
  });
});

describe("export --group", () => {
  it("writes the group, its subgroups and their projects, which plan as no change", async () => {
    const out = configFile("", "acme-gitlab.yaml");
    const exported = await runInProcess(["export", "--group", "acme", ...at(), "--out", out]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    const text = readFileSync(out, "utf8");
    for (const line of [
      '# group acme epics (name links between them under groups[].epic_links_absent): &1 "Platform v2", &2 "Auth revamp", &3 "Observability"',
      "# group acme/platform epics (name links between them under groups[].epic_links_absent): none",
      '# project acme/api boards (name any under projects[].boards_absent to delete it): 1 "Development", 2 "Legacy triage"',
      "# project acme/platform/infra boards (name any under projects[].boards_absent to delete it): none",
      '# project acme/web boards (name any under projects[].boards_absent to delete it): 3 "Web"',
    ]) {
      expect(text).toContain(line);
    }
    // Every kind the demo world gives acme and acme/api something of is in the export (#36, #37).
    const written = parse(text) as {
      projects: Array<Record<string, unknown>>;
      groups: Array<Record<string, unknown>>;
    };
    const api = written.projects.find((entry) => entry.project === "acme/api")!;
    expect(Object.keys(api).sort()).toEqual(
      [
        "project",
        "target",
        "settings",
        "protected_branches",
        "protected_tags",
        "members",
        "shared_with_groups",
        "push_rules",
        "merge_request_approvals",
        "badges",
        "labels",
        "deploy_keys",
        "protected_environments",
        "webhooks",
      ].sort(),
    );
    const acme = written.groups.find((entry) => entry.group === "acme")!;
    expect(Object.keys(acme)).toEqual(
      expect.arrayContaining(["settings", "members", "push_rules", "badges", "labels", "webhooks"]),
    );
    // Every secret value is a placeholder to fill: the demo hooks' tokens and header (#37).
    const placeholders = {
      ACME_HOOK_1_TOKEN: "to fill",
      ACME_API_HOOK_2_TOKEN: "to fill",
      ACME_API_HOOK_2_HEADER_X_ACME_ROUTE: "to fill",
    };
    for (const name of Object.keys(placeholders)) expect(text).toContain(`\${${name}}`);
    const planned = await runInProcess(["plan", "-c", out, ...at()], {
      cwd: dirname(out),
      env: placeholders,
    });
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });
});
