import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runInProcess } from "../helpers/cli.js";
import { placeholdersOf } from "../helpers/placeholders.js";
import { configFile } from "../helpers/sandbox.js";
import { gitlabScenario } from "../helpers/gitlab-scenario.js";

/**
 * GitLab push rules and merge-request approvals (#36, items 7 and 8) end to end against the demo
 * world: acme/api has a push rule, approval settings, an any_approver rule "All Members" and a
 * regular rule "Security" (octo-dev and acme/platform, on main); group acme has a push rule.
 */

const scenario = gitlabScenario();
const { start, plan, apply } = scenario;

const indent = (text: string, by: string) =>
  text
    .trim()
    .split("\n")
    .map((line) => `${by}${line}`)
    .join("\n");

function projectConfig(key: string, yaml: string): string {
  return configFile(`version: 1
projects:
  - project: acme/api
    ${key}:
${indent(yaml, "      ")}
`);
}

function groupConfig(yaml: string): string {
  return configFile(`version: 1
groups:
  - group: acme
    push_rules:
${indent(yaml, "      ")}
`);
}

/** A plan refused at load prints no plan: its code and its error. */
async function refused(path: string) {
  return runInProcess(["plan", "-c", path, "--sandbox-url", scenario.world.url]);
}

const writes = () =>
  scenario.requests
    .filter((request) => request.method !== "GET")
    .map((request) => [request.method, request.path.split("?")[0], request.body]);

async function read(path: string): Promise<unknown> {
  const answer = await fetch(`${scenario.world.url}${path}`, {
    headers: { "PRIVATE-TOKEN": "sandbox-admin" },
  });
  return answer.json();
}

describe("push rules", () => {
  it("updates a project's rule with one PUT of what differs, deletes it with --allow-delete, creates it with one POST", async () => {
    await start();
    const rule = projectConfig(
      "push_rules",
      `
deny_delete_tag: true
prevent_secrets: true
max_file_size: 50
reject_unsigned_commits: false
branch_name_regex: "^(main|feature/.+)$"
`,
    );
    const first = await plan(rule);
    expect(first.code).toBe(2);
    expect(
      first.plan.changes.map((change) => [change.name, change.action, change.requests]),
    ).toEqual([
      [
        "push_rule",
        "update",
        [
          {
            method: "PUT",
            path: "/api/v4/projects/acme%2Fapi/push_rule",
            // reject_unsigned_commits is null live (never set): the same as false.
            body: { branch_name_regex: "^(main|feature/.+)$", max_file_size: 50 },
          },
        ],
      ],
    ]);
    expect((await apply(rule)).code).toBe(0);
    expect((await plan(rule)).code).toBe(0);

    scenario.forget();
    const none = projectConfig("push_rules", "null");
    const held = await apply(none);
    expect(held.code).not.toBe(0);
    expect(writes()).toEqual([]);
    expect((await apply(none, "--allow-delete")).code).toBe(0);
    expect(writes()).toEqual([["DELETE", "/api/v4/projects/acme%2Fapi/push_rule", undefined]]);
    expect(await read("/api/v4/projects/1/push_rule")).toBeNull();
    expect((await plan(none)).code).toBe(0);

    scenario.forget();
    expect((await apply(rule)).code).toBe(0);
    expect(writes()).toEqual([
      [
        "POST",
        "/api/v4/projects/acme%2Fapi/push_rule",
        {
          deny_delete_tag: true,
          prevent_secrets: true,
          max_file_size: 50,
          reject_unsigned_commits: false,
          branch_name_regex: "^(main|feature/.+)$",
        },
      ],
    ]);
    expect((await plan(rule)).code).toBe(0);
  });

  it("manages a group's rule, which GitLab answers 404 for when there is none", async () => {
    await start();
    const path = groupConfig("member_check: true\ncommit_committer_check: true");
    expect((await apply(path)).code).toBe(0);
    expect(writes()).toEqual([
      ["PUT", "/api/v4/groups/acme/push_rule", { commit_committer_check: true }],
    ]);
    expect((await apply(groupConfig("null"), "--allow-delete")).code).toBe(0);
    scenario.forget();
    const created = await plan(path);
    expect(created.plan.changes[0]!.action).toBe("create");
    expect((await apply(path)).code).toBe(0);
    expect(writes()).toEqual([
      [
        "POST",
        "/api/v4/groups/acme/push_rule",
        { member_check: true, commit_committer_check: true },
      ],
    ]);
    expect((await plan(path)).code).toBe(0);
  });

  it("refuses an expression RE2 cannot compile at load", async () => {
    await start();
    const result = await refused(projectConfig("push_rules", 'commit_message_regex: "^(?!WIP)"'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("lookarounds");
    expect(scenario.requests).toEqual([]);
  });

  it("reports GitLab's 404 on Free as the push rule's error, and writes nothing", async () => {
    await start({ gitlabTier: "free" });
    const path = projectConfig("push_rules", "deny_delete_tag: true");
    const planned = await plan(path);
    expect(planned.code).toBe(1);
    const error = planned.plan.changes[0]!.error!;
    expect(error.request).toBe("GET /api/v4/projects/acme%2Fapi/push_rule");
    expect(error.status).toBe(404);
    expect(error.message).toContain("push rules are not available (they need GitLab Premium)");
    expect((await apply(path)).code).toBe(1);
    expect(writes()).toEqual([]);
  });
});

const approvals = (yaml: string) => projectConfig("merge_request_approvals", yaml);

describe("merge-request approvals", () => {
  it("changes the any_approver rule's name and count with one PUT, never a second POST", async () => {
    await start();
    const path = approvals(`
rules:
  items:
    Any approver:
      rule_type: any_approver
      approvals_required: 2
`);
    const planned = await plan(path);
    expect(planned.code).toBe(2);
    const [change] = planned.plan.changes;
    expect(change!.name).toBe("rules/Any approver");
    expect(change!.action).toBe("update");
    expect(change!.diff.map((entry) => entry.path).sort()).toEqual(["approvals_required", "name"]);
    expect((await apply(path)).code).toBe(0);
    expect(writes()).toEqual([
      [
        "PUT",
        "/api/v4/projects/acme%2Fapi/approval_rules/1",
        {
          name: "Any approver",
          approvals_required: 2,
          user_ids: [],
          group_ids: [],
          protected_branch_ids: [],
          applies_to_all_protected_branches: false,
        },
      ],
    ]);
    expect((await plan(path)).code).toBe(0);
    const rules = (await read("/api/v4/projects/1/approval_rules")) as Array<{ rule_type: string }>;
    expect(rules.filter((rule) => rule.rule_type === "any_approver")).toHaveLength(1);
  });

  it("replaces a rule whose type changes (DELETE, then POST), GitLab's PUT taking no rule_type", async () => {
    await start();
    const path = approvals(`
rules:
  items:
    All Members:
      approvals_required: 1
      users: [octo-dev]
`);
    const planned = await plan(path);
    const [change] = planned.plan.changes;
    expect(change!.action).toBe("update");
    expect(change!.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "DELETE /api/v4/projects/acme%2Fapi/approval_rules/1",
      "POST /api/v4/projects/acme%2Fapi/approval_rules",
    ]);
    expect(change!.notes?.join(" ")).toContain(
      "GitLab's PUT of an approval rule takes no rule_type",
    );
    expect((await apply(path)).code).toBe(0);
    expect((await plan(path)).code).toBe(0);
  });

  it("gives the any_approver rule the name of another rule by deleting that one first, in one change", async () => {
    await start();
    const path = approvals(`
rules:
  items:
    Security:
      rule_type: any_approver
      approvals_required: 1
`);
    const planned = await plan(path);
    expect(planned.plan.changes.map((change) => change.name)).toEqual(["rules/Security"]);
    expect(
      planned.plan.changes[0]!.requests.map((request) => `${request.method} ${request.path}`),
    ).toEqual([
      "DELETE /api/v4/projects/acme%2Fapi/approval_rules/2",
      "PUT /api/v4/projects/acme%2Fapi/approval_rules/1",
    ]);
    expect((await apply(path)).code).toBe(0);
    expect(writes().filter(([method]) => method === "POST")).toEqual([]);
    expect((await plan(path)).code).toBe(0);
  });

  it("refuses a second any_approver rule at load, naming both", async () => {
    await start();
    const result = await refused(
      approvals(`
rules:
  items:
    One:
      rule_type: any_approver
      approvals_required: 1
    Two:
      rule_type: any_approver
      approvals_required: 2
`),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'a project has at most one any_approver rule ("One" is one already)',
    );
    expect(result.stderr).toContain("rules.items.Two.rule_type");
    expect(scenario.requests).toEqual([]);
  });

  it("answers a second any_approver POST as GitLab does", async () => {
    await start();
    const answer = await fetch(`${scenario.world.url}/api/v4/projects/1/approval_rules`, {
      method: "POST",
      headers: { "PRIVATE-TOKEN": "sandbox-admin", "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Another", approvals_required: 1 }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      message: { rule_type: ["any-approver for the project already exists"] },
    });
  });

  it("refuses an unknown username at plan time and sends nothing", async () => {
    await start();
    const path = approvals(`
rules:
  items:
    Security:
      approvals_required: 1
      users: [octo-dev, ghost-user]
      groups: [acme/platform]
      protected_branches: [main]
`);
    const planned = await plan(path);
    expect(planned.code).toBe(1);
    const error = planned.plan.changes.find((change) => change.name === "rules/Security")!.error!;
    expect(error.message).toContain(
      "approver ghost-user is not a member of acme/api (or no such user)",
    );
    expect(error.written).toContain("merge_request_approvals.rules.items.Security.users[1]");
    expect((await apply(path)).code).toBe(1);
    expect(writes()).toEqual([]);
  });

  it("creates, updates and (authoritatively) deletes rules, and sets the settings by one POST", async () => {
    await start();
    const path = approvals(`
settings:
  reset_approvals_on_push: false
  selective_code_owner_removals: false
  merge_requests_author_approval: true
rules:
  mode: authoritative
  items:
    Security:
      approvals_required: 2
      users: [octo-dev, octo-admin]
      protected_branches: [main, release/*]
    Release:
      approvals_required: 1
      groups: [acme]
      applies_to_all_protected_branches: true
`);
    const planned = await plan(path);
    expect(planned.plan.changes.map((change) => [change.name, change.action]).sort()).toEqual([
      ["rules/All Members", "delete"],
      ["rules/Release", "create"],
      ["rules/Security", "update"],
      ["settings", "update"],
    ]);
    expect((await apply(path, "--allow-delete")).code).toBe(0);
    // Apply sends a project's deletes of a kind first (src/engine/repository-order.ts).
    expect(writes().map(([method, at]) => `${String(method)} ${String(at)}`)).toEqual([
      "DELETE /api/v4/projects/acme%2Fapi/approval_rules/1",
      "POST /api/v4/projects/acme%2Fapi/approvals",
      "PUT /api/v4/projects/acme%2Fapi/approval_rules/2",
      "POST /api/v4/projects/acme%2Fapi/approval_rules",
    ]);
    expect(writes()[1]![2]).toEqual({
      selective_code_owner_removals: false,
      merge_requests_author_approval: true,
    });
    expect((await plan(path)).code).toBe(0);
  });

  it("reports GitLab's 403 on Free for the settings and the rules, and writes nothing", async () => {
    await start({ gitlabTier: "free" });
    const path = approvals(`
settings:
  require_password_to_approve: true
rules:
  items:
    Any:
      rule_type: any_approver
      approvals_required: 1
`);
    const planned = await plan(path);
    expect(planned.code).toBe(1);
    expect(
      planned.plan.changes.map((change) => [
        change.name,
        change.error?.request,
        change.error?.status,
      ]),
    ).toEqual([
      ["settings", "GET /api/v4/projects/acme%2Fapi/approvals", 403],
      ["rules/Any", "GET /api/v4/projects/acme%2Fapi/approval_rules?per_page=100", 403],
    ]);
    expect((await apply(path)).code).toBe(1);
    expect(writes()).toEqual([]);
  });
});

describe("export", () => {
  async function exportGroup(free = false): Promise<{ path: string; text: string }> {
    const out = configFile("", "acme-export.yaml");
    const exported = await runInProcess([
      "export",
      "--group",
      "acme",
      "--sandbox-url",
      scenario.world.url,
      "--out",
      out,
    ]);
    // On Free the epics' comments cannot be read (epics are Premium): the export says so, and
    // exits 1 for them; what is checked of it is what it wrote.
    if (!free) {
      expect(exported.stderr).toBe("");
      expect(exported.code).toBe(0);
    }
    return { path: out, text: readFileSync(out, "utf8") };
  }

  it("writes the demo world's push rules and approvals, which plan as no change", async () => {
    await start();
    const { path, text } = await exportGroup();
    const file = parse(text) as {
      groups: Array<{ group: string; push_rules?: unknown }>;
      projects: Array<{ project: string; push_rules?: unknown; merge_request_approvals?: unknown }>;
    };
    expect(file.groups.find((entry) => entry.group === "acme")!.push_rules).toEqual({
      deny_delete_tag: false,
      member_check: true,
      prevent_secrets: false,
      commit_committer_check: false,
      commit_committer_name_check: false,
      reject_unsigned_commits: false,
      reject_non_dco_commits: false,
      commit_message_regex: "",
      commit_message_negative_regex: "",
      branch_name_regex: "",
      author_email_regex: "",
      file_name_regex: "",
      max_file_size: 0,
    });
    const api = file.projects.find((entry) => entry.project === "acme/api")!;
    expect(api.merge_request_approvals).toEqual({
      settings: {
        reset_approvals_on_push: false,
        selective_code_owner_removals: true,
        disable_overriding_approvers_per_merge_request: true,
        merge_requests_author_approval: false,
        merge_requests_disable_committers_approval: false,
        require_password_to_approve: false,
      },
      rules: {
        mode: "additive",
        items: {
          "All Members": { rule_type: "any_approver", approvals_required: 1 },
          Security: {
            approvals_required: 1,
            users: ["octo-dev"],
            groups: ["acme/platform"],
            protected_branches: ["main"],
          },
        },
      },
    });
    expect(api.push_rules).toMatchObject({ deny_delete_tag: true, max_file_size: 100 });
    // acme/web has no push rule and no approval rules: nothing of either but its settings.
    const web = file.projects.find((entry) => entry.project === "acme/web")!;
    expect(web.push_rules).toBeUndefined();
    // The hooks' tokens and headers are placeholders the export wrote, to set (gitlab_hook).
    const planned = await runInProcess(["plan", "-c", path, "--sandbox-url", scenario.world.url], {
      cwd: dirname(path),
      env: placeholdersOf(text),
    });
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });

  it("on Free writes neither (GitLab's 404 and 403) and still exports the rest", async () => {
    await start({ gitlabTier: "free" });
    const { text } = await exportGroup(true);
    expect(text.match(/# not exported:.*/g)?.join("\n")).not.toMatch(/push|approval/);
    expect(text).not.toContain("push_rules");
    expect(text).not.toContain("merge_request_approvals");
    expect(text).toContain("project: acme/api");
  });
});
