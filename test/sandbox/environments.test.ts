import { describe, expect, it } from "vitest";
import { ADMIN, call, sandbox } from "./helpers.js";
import { check, github, responseSchema } from "./openapi-check.js";

const ENVIRONMENTS = "/repos/acme/api/environments";
const ENVIRONMENT = "/repos/{owner}/{repo}/environments/{environment_name}";
const POLICIES = `${ENVIRONMENT}/deployment-branch-policies`;

describe("deployment environments", () => {
  it("are listed and read in GitHub's shapes, their protection as typed rules", async () => {
    const sb = await sandbox();
    const listed = await call(sb, "GET", ENVIRONMENTS);
    expect(check(responseSchema("/repos/{owner}/{repo}/environments", "get"), listed.body)).toEqual(
      [],
    );
    expect(listed.body.total_count).toBe(2);
    const production = await call(sb, "GET", `${ENVIRONMENTS}/PRODUCTION`);
    expect(check(responseSchema(ENVIRONMENT, "get"), production.body)).toEqual([]);
    expect(production.body.name).toBe("production");
    expect(production.body.protection_rules.map((rule: { type: string }) => rule.type)).toEqual([
      "wait_timer",
      "required_reviewers",
      "branch_policy",
    ]);
    expect(production.body.deployment_branch_policy).toEqual({
      protected_branches: false,
      custom_branch_policies: true,
    });
    const policies = await call(sb, "GET", `${ENVIRONMENTS}/production/deployment-branch-policies`);
    expect(check(responseSchema(POLICIES, "get"), policies.body)).toEqual([]);
    expect(policies.body.branch_policies.map((policy: { name: string }) => policy.name)).toEqual([
      "main",
      "v*",
    ]);
  });

  it("a PUT keeps what it does not send, and an environment of another case is the same one", async () => {
    const sb = await sandbox();
    const put = await call(sb, "PUT", `${ENVIRONMENTS}/Production`, { body: { wait_timer: 60 } });
    expect(put.status).toBe(200);
    expect(check(responseSchema(ENVIRONMENT, "put"), put.body)).toEqual([]);
    expect(put.body.name).toBe("production");
    expect(put.body.protection_rules[0]).toMatchObject({ type: "wait_timer", wait_timer: 60 });
    expect(put.body.protection_rules[1].reviewers).toHaveLength(2);
  });

  it("refuse GitHub's limits with 422", async () => {
    const sb = await sandbox();
    const refused = async (body: unknown) =>
      (await call(sb, "PUT", `${ENVIRONMENTS}/preview`, { body })).body.message;
    expect(await refused({ wait_timer: 43_201 })).toBe(
      "wait_timer must be an integer between 0 and 43200 (30 days)",
    );
    expect(await refused({ prevent_self_review: true })).toBe(
      "Failed to create or update the environment protection rule. Required reviewers must have at least one reviewer to set prevent_self_review.",
    );
    const seven = [1, 2, 3, 1, 2, 3, 1].map((id) => ({ type: "User", id }));
    expect(await refused({ reviewers: seven })).toBe(
      "Only 6 users or teams can be required reviewers",
    );
    expect(await refused({ reviewers: [{ type: "User", id: 4 }] })).toBe(
      "hubot does not have read access to the repository",
    );
    expect(
      await refused({
        deployment_branch_policy: { protected_branches: true, custom_branch_policies: true },
      }),
    ).toMatch(/exactly one of protected_branches and custom_branch_policies/);
    const unknownMember = await call(sb, "PUT", `${ENVIRONMENTS}/preview`, {
      body: { can_admins_bypass: false },
    });
    expect(unknownMember.status).toBe(422);
    expect((await call(sb, "GET", `${ENVIRONMENTS}/preview`)).status).toBe(404);
  });

  it("custom policies exist only while they are on; a pattern twice answers 303", async () => {
    const sb = await sandbox();
    const policies = `${ENVIRONMENTS}/production/deployment-branch-policies`;
    const created = await call(sb, "POST", policies, { body: { name: "release/*" } });
    expect(created.status).toBe(200);
    expect(check(responseSchema(POLICIES, "post"), created.body)).toEqual([]);
    expect(created.body).toMatchObject({ name: "release/*", type: "branch" });
    const again = await fetch(`${sb.url}${policies}`, {
      method: "POST",
      redirect: "manual",
      headers: { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "release/*" }),
    });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(`${sb.url}${policies}/${created.body.id}`);
    expect(
      (await call(sb, "GET", `${ENVIRONMENTS}/staging/deployment-branch-policies`)).status,
    ).toBe(404);
    await call(sb, "PUT", `${ENVIRONMENTS}/production`, {
      body: {
        deployment_branch_policy: { protected_branches: true, custom_branch_policies: false },
      },
    });
    await call(sb, "PUT", `${ENVIRONMENTS}/production`, {
      body: {
        deployment_branch_policy: { protected_branches: false, custom_branch_policies: true },
      },
    });
    expect((await call(sb, "GET", policies)).body.branch_policies).toEqual([]);
  });

  it("are written with admin rights only, and deleted with 204", async () => {
    const sb = await sandbox();
    const refused = await call(sb, "PUT", `${ENVIRONMENTS}/preview`, {
      token: "sandbox-dev",
      body: {},
    });
    expect(refused.status).toBe(403);
    expect((await call(sb, "DELETE", `${ENVIRONMENTS}/staging`)).status).toBe(204);
    expect((await call(sb, "GET", ENVIRONMENTS)).body.total_count).toBe(1);
  });
});

describe("users", () => {
  it("are read by login in GitHub's public-user shape", async () => {
    const sb = await sandbox();
    const user = await call(sb, "GET", "/users/Octo-Dev");
    expect(user.body).toMatchObject({ login: "octo-dev", id: 3 });
    // The spec defines no such operation: GitHub's schema as published, gravatar_id and all.
    expect(
      check(responseSchema("/users/{username}", "get"), user.body, github.components.schemas),
    ).toEqual([]);
    expect((await call(sb, "GET", "/users/nobody-here")).status).toBe(404);
  });
});
