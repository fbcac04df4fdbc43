import { describe, expect, it } from "vitest";
import type { SandboxOptions } from "../../src/sandbox/index.js";
import { sandbox } from "./helpers.js";

/**
 * The push-rules and approvals areas answered as GitLab answers, requests sent deliberately wrong
 * (a sandbox of this folder's helpers records nothing, so GitLab's refusals are not held against
 * the test). The demo world: acme/api (id 1) and group acme have push rules; acme/web (id 2) has
 * none; acme/api has the any_approver rule "All Members" (id 1) and "Security" (id 2).
 */

async function start(options: SandboxOptions = {}) {
  const world = await sandbox(options);
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${world.url}/api/v4${path}`, {
      method,
      headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    return { status: answer.status, body: text === "" ? undefined : (JSON.parse(text) as unknown) };
  };
  return {
    world,
    call,
    admin: (method: string, path: string, body?: unknown) =>
      call("sandbox-admin", method, path, body),
  };
}

describe("push rules", () => {
  it("answers a project without a rule 200 null, a group without one 404", async () => {
    const { admin } = await start();
    expect(await admin("GET", "/projects/2/push_rule")).toEqual({ status: 200, body: null });
    expect(await admin("GET", "/groups/partners/push_rule")).toEqual({
      status: 404,
      body: { message: "404 Not Found" },
    });
    const rule = (await admin("GET", "/projects/1/push_rule")).body as Record<string, unknown>;
    expect(rule).toMatchObject({ project_id: 1, deny_delete_tag: true, max_file_size: 100 });
    // Never set: null, as GitLab answers them.
    expect(rule.reject_non_dco_commits).toBeNull();
    expect(rule.branch_name_regex).toBeNull();
  });

  it("refuses what GitLab refuses, changing nothing", async () => {
    const { admin } = await start();
    expect(await admin("POST", "/projects/1/push_rule", { deny_delete_tag: false })).toEqual({
      status: 422,
      body: { message: "Project push rule exists" },
    });
    expect(await admin("POST", "/groups/acme/push_rule", { member_check: false })).toEqual({
      status: 422,
      body: { message: "Group push rule exists, try updating" },
    });
    expect(await admin("PUT", "/projects/2/push_rule", { deny_delete_tag: true })).toEqual({
      status: 404,
      body: { message: "404 Push Rule Not Found" },
    });
    expect((await admin("PUT", "/projects/1/push_rule", {})).status).toBe(400);
    expect(await admin("PUT", "/projects/1/push_rule", { commit_message_regex: "^(?=x)" })).toEqual(
      {
        status: 400,
        body: {
          message: { commit_message_regex: ["not valid RE2 syntax: invalid perl operator: (?="] },
        },
      },
    );
    expect(await admin("PUT", "/projects/1/push_rule", { max_file_size: "big" })).toEqual({
      status: 400,
      body: { error: "max_file_size is invalid" },
    });
    expect(
      await admin("PUT", "/projects/1/push_rule", { commit_message_regex: "(?i)^wip" }),
    ).toMatchObject({
      status: 200,
    });
    expect((await admin("GET", "/projects/1/push_rule")).body).toMatchObject({
      deny_delete_tag: true,
    });
  });

  it("needs a Maintainer for a project (403) and an Owner for a group (404)", async () => {
    const { call } = await start();
    expect(await call("sandbox-dev", "GET", "/projects/1/push_rule")).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect(await call("sandbox-dev", "GET", "/groups/acme/push_rule")).toEqual({
      status: 404,
      body: { message: "404 Not Found" },
    });
  });

  it("answers 404 below Premium, for a project and a group", async () => {
    const { admin } = await start({ gitlabTier: "free" });
    expect(await admin("GET", "/projects/1/push_rule")).toEqual({
      status: 404,
      body: { message: "404 Not Found" },
    });
    expect((await admin("POST", "/groups/acme/push_rule", { member_check: true })).status).toBe(
      404,
    );
  });
});

describe("approvals", () => {
  it("keeps selective Code Owner removals only without resetting on push", async () => {
    const { admin } = await start();
    expect(await admin("POST", "/projects/1/approvals", { reset_approvals_on_push: true })).toEqual(
      {
        status: 400,
        body: {
          message: {
            selective_code_owner_removals: [
              "can only be enabled when reset_approvals_on_push is disabled",
            ],
          },
        },
      },
    );
    const changed = await admin("POST", "/projects/1/approvals", {
      reset_approvals_on_push: "true",
      selective_code_owner_removals: false,
    });
    expect(changed.status).toBe(201);
    expect(changed.body).toMatchObject({
      reset_approvals_on_push: true,
      approvers: [],
      approver_groups: [],
    });
  });

  it("makes a rule without approvers or type the any_approver rule, and refuses a second", async () => {
    const { admin } = await start();
    expect(
      await admin("POST", "/projects/1/approval_rules", {
        name: "All Members",
        approvals_required: 1,
      }),
    ).toEqual({
      status: 400,
      body: {
        message: {
          name: ["has already been taken"],
          rule_type: ["any-approver for the project already exists"],
        },
      },
    });
    expect((await admin("DELETE", "/projects/1/approval_rules/1")).status).toBe(204);
    const made = await admin("POST", "/projects/1/approval_rules", {
      name: "Anyone",
      approvals_required: 0,
    });
    expect(made).toMatchObject({
      status: 201,
      body: { rule_type: "any_approver", name: "Anyone" },
    });
    // An explicit type is kept.
    const regular = await admin("POST", "/projects/1/approval_rules", {
      name: "Typed",
      approvals_required: 1,
      rule_type: "regular",
    });
    expect(regular).toMatchObject({ status: 201, body: { rule_type: "regular" } });
  });

  it("keeps only members as approvers, visible groups and the project's protected branches", async () => {
    const { admin } = await start();
    // outside-contractor (5) is no member of acme/api; 999 is no protected branch of it.
    const made = await admin("POST", "/projects/1/approval_rules", {
      name: "Mixed",
      approvals_required: 1,
      user_ids: [3, 5],
      usernames: ["octo-admin"],
      group_ids: [3, 999],
      protected_branch_ids: [1, 999],
    });
    expect(made.status).toBe(201);
    const rule = made.body as {
      users: Array<{ username: string }>;
      groups: Array<{ full_path: string }>;
      protected_branches: Array<{ name: string }>;
    };
    expect(rule.users.map((user) => user.username)).toEqual(["octo-dev", "octo-admin"]);
    expect(rule.groups.map((group) => group.full_path)).toEqual(["acme/platform"]);
    expect(rule.protected_branches.map((branch) => branch.name)).toEqual(["main"]);
  });

  it("updates a rule by PUT, replacing the approvers given and keeping the others", async () => {
    const { admin } = await start();
    const put = await admin("PUT", "/projects/1/approval_rules/2", {
      name: "Security",
      approvals_required: 3,
      user_ids: [],
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      approvals_required: 3,
      users: [],
      groups: [{ full_path: "acme/platform" }],
    });
    expect(await admin("PUT", "/projects/1/approval_rules/2", { approvals_required: 1 })).toEqual({
      status: 400,
      body: { error: "name is missing" },
    });
    expect(
      await admin("PUT", "/projects/1/approval_rules/99", { name: "X", approvals_required: 1 }),
    ).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
  });

  it("answers 403 below Premium and to a Developer's write", async () => {
    const free = await start({ gitlabTier: "free" });
    expect(await free.admin("GET", "/projects/1/approval_rules")).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    const premium = await start({ gitlabTier: "premium" });
    expect((await premium.admin("GET", "/projects/1/approvals")).status).toBe(200);
    expect(
      (
        await premium.call("sandbox-dev", "POST", "/projects/1/approvals", {
          require_password_to_approve: true,
        })
      ).status,
    ).toBe(403);
  });
});
