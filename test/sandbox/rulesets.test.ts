import { describe, expect, it } from "vitest";
import { call, READER, sandbox } from "./helpers.js";

const REPO = "/repos/acme/api/rulesets";
const ORG = "/orgs/acme/rulesets";

const branchRuleset = (overrides: Record<string, unknown> = {}) => ({
  name: "main",
  target: "branch",
  enforcement: "active",
  conditions: { ref_name: { include: ["refs/heads/main"], exclude: [] } },
  rules: [
    { type: "deletion" },
    {
      type: "pull_request",
      parameters: {
        required_approving_review_count: 2,
        dismiss_stale_reviews_on_push: true,
        require_code_owner_review: false,
        require_last_push_approval: false,
        required_review_thread_resolution: false,
      },
    },
  ],
  ...overrides,
});

describe("repository rulesets", () => {
  it("lists the repository's own rulesets and, unless includes_parents=false, its organization's", async () => {
    const sb = await sandbox();
    const all = await call(sb, "GET", REPO);
    expect(all.status).toBe(200);
    expect(
      all.body.map((item: { name: string; source_type: string }) => [item.name, item.source_type]),
    ).toEqual([
      ["acme baseline", "Organization"],
      ["release tags", "Repository"],
    ]);
    expect(all.body[0].rules).toBeUndefined();
    const own = await call(sb, "GET", `${REPO}?includes_parents=false`);
    expect(own.body.map((item: { name: string }) => item.name)).toEqual(["release tags"]);
    const tags = await call(sb, "GET", `${REPO}?targets=branch`);
    expect(tags.body.map((item: { name: string }) => item.name)).toEqual(["acme baseline"]);
  });

  it("creates a ruleset with a new id, filling in the defaults GitHub fills in", async () => {
    const sb = await sandbox();
    const created = await call(sb, "POST", REPO, {
      body: branchRuleset({
        bypass_actors: [
          { actor_id: 5, actor_type: "RepositoryRole" },
          { actor_id: 1, actor_type: "OrganizationAdmin", bypass_mode: "pull_request" },
        ],
      }),
    });
    expect(created.status).toBe(201);
    expect(created.body.id).toBe(3);
    expect(created.body.source).toBe("acme/api");
    expect(created.body.bypass_actors).toEqual([
      { actor_id: 5, actor_type: "RepositoryRole", bypass_mode: "always" },
      { actor_id: null, actor_type: "OrganizationAdmin", bypass_mode: "pull_request" },
    ]);
    expect(created.body.rules[1].parameters.allowed_merge_methods).toEqual([
      "merge",
      "squash",
      "rebase",
    ]);
    expect(created.body.current_user_can_bypass).toBe("always");
    const read = await call(sb, "GET", `${REPO}/3`);
    expect(read.body).toEqual(created.body);
  });

  it("shows bypass actors only to those who may edit the ruleset", async () => {
    const sb = await sandbox();
    const admin = await call(sb, "GET", `${REPO}/2`);
    expect(admin.body.bypass_actors).toEqual([
      { actor_id: 2, actor_type: "Team", bypass_mode: "always" },
    ]);
    const reader = await call(sb, "GET", `${REPO}/2`, { token: READER });
    expect(reader.status).toBe(200);
    expect(reader.body.bypass_actors).toBeUndefined();
    expect(reader.body.rules).toEqual(admin.body.rules);
  });

  it("refuses what GitHub refuses, with its 422 body and nothing stored", async () => {
    const sb = await sandbox();
    const refusals: Array<[unknown, string]> = [
      [{ name: "x" }, "Invalid property /enforcement: is required"],
      [
        branchRuleset({ rules: [{ type: "repository_delete" }] }),
        "Invalid property /rules/0: data matches no possible input",
      ],
      [
        branchRuleset({
          rules: [{ type: "pull_request", parameters: { required_approving_review_count: 1 } }],
        }),
        "Invalid property /rules/0: data matches no possible input",
      ],
      [
        branchRuleset({ target: "tag" }),
        "Invalid rule 'pull_request': not available for tag rulesets",
      ],
      [branchRuleset({ name: "release tags" }), "Name must be unique"],
      [
        branchRuleset({ bypass_actors: null }),
        "Invalid property /bypass_actors: data cannot be null",
      ],
      [
        branchRuleset({ bypass_actors: [{ actor_id: 99, actor_type: "Team" }] }),
        "Invalid bypass actors: team 99 does not exist in this organization",
      ],
      [
        branchRuleset({ bypass_actors: [{ actor_id: 3, actor_type: "RepositoryRole" }] }),
        "Invalid bypass actors: repository role 3 does not exist",
      ],
      [
        branchRuleset({
          rules: [
            {
              type: "required_status_checks",
              parameters: {
                strict_required_status_checks_policy: true,
                required_status_checks: [{ context: "ci/build", integration_id: 424242 }],
              },
            },
          ],
        }),
        "Invalid rule 'required_status_checks': Invalid parameter required_status_checks: Invalid integration ids",
      ],
      [
        branchRuleset({ target: "push", rules: [{ type: "deletion" }] }),
        "Invalid rule 'deletion': not available for push rulesets",
      ],
    ];
    for (const [body, error] of refusals) {
      const response = await call(sb, "POST", REPO, { body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.message).toBe("Validation Failed");
      expect(response.body.status).toBe("422");
      expect(response.body.errors).toContain(error);
    }
    const own = await call(sb, "GET", `${REPO}?includes_parents=false`);
    expect(own.body).toHaveLength(1);
  });

  it("updates only the members a PUT sends, and deletes", async () => {
    const sb = await sandbox();
    const created = await call(sb, "POST", REPO, { body: branchRuleset() });
    const path = `${REPO}/${created.body.id}`;
    const updated = await call(sb, "PUT", path, { body: { enforcement: "evaluate" } });
    expect(updated.status).toBe(200);
    expect(updated.body.enforcement).toBe("evaluate");
    expect(updated.body.rules).toEqual(created.body.rules);
    expect((await call(sb, "DELETE", path)).status).toBe(204);
    expect((await call(sb, "GET", path)).status).toBe(404);
    expect((await call(sb, "DELETE", path)).status).toBe(404);
  });

  it("lets only admins write and refuses writes to a repository a migration locks", async () => {
    const sb = await sandbox();
    const denied = await call(sb, "POST", REPO, { body: branchRuleset(), token: READER });
    expect(denied.status).toBe(403);
    const locked = await sandbox({ seed: "test/sandbox/fixtures/small-world.yaml" });
    const listed = await call(locked, "GET", "/repos/tiny/locked/rulesets", {
      token: "alice-token",
    });
    expect(listed.status).toBe(200);
    const refused = await call(locked, "POST", "/repos/tiny/locked/rulesets", {
      body: branchRuleset(),
      token: "alice-token",
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Repository is locked by a migration in progress.");
  });
});

describe("organization rulesets", () => {
  it("are for organization owners; others are told they do not exist", async () => {
    const sb = await sandbox();
    const listed = await call(sb, "GET", ORG);
    expect(listed.body.map((item: { name: string }) => item.name)).toEqual(["acme baseline"]);
    expect((await call(sb, "GET", ORG, { token: READER })).status).toBe(404);
    expect((await call(sb, "GET", `${ORG}/1`)).body.conditions).toEqual({
      ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] },
      repository_name: { include: ["~ALL"], exclude: [], protected: false },
    });
  });

  it("must target repositories in exactly one way, and takes no merge queue", async () => {
    const sb = await sandbox();
    const noTarget = await call(sb, "POST", ORG, {
      body: { name: "x", enforcement: "active", conditions: { ref_name: { include: ["~ALL"] } } },
    });
    expect(noTarget.body.errors).toEqual([
      "Invalid property /conditions: data matches no possible input",
    ]);
    const queue = await call(sb, "POST", ORG, {
      body: {
        name: "x",
        enforcement: "active",
        conditions: { ref_name: { include: ["~ALL"] }, repository_name: { include: ["~ALL"] } },
        rules: [
          {
            type: "merge_queue",
            parameters: {
              check_response_timeout_minutes: 60,
              grouping_strategy: "ALLGREEN",
              max_entries_to_build: 5,
              max_entries_to_merge: 5,
              merge_method: "MERGE",
              min_entries_to_merge: 1,
              min_entries_to_merge_wait_minutes: 5,
            },
          },
        ],
      },
    });
    expect(queue.body.errors).toEqual([
      "Invalid rule 'merge_queue': not available for organization rulesets",
    ]);
  });
});

describe("rules for a branch", () => {
  it("gathers the active branch rules of the repository and its organization that match the branch", async () => {
    const sb = await sandbox();
    const main = await call(sb, "GET", "/repos/acme/api/rules/branches/main");
    expect(main.status).toBe(200);
    expect(main.body).toEqual([
      {
        type: "deletion",
        ruleset_source_type: "Organization",
        ruleset_source: "acme",
        ruleset_id: 1,
      },
      {
        type: "non_fast_forward",
        ruleset_source_type: "Organization",
        ruleset_source: "acme",
        ruleset_id: 1,
      },
    ]);
    // "release" is not the default branch; a branch that does not exist is answered all the same.
    expect((await call(sb, "GET", "/repos/acme/api/rules/branches/release")).body).toEqual([]);
    expect((await call(sb, "GET", "/repos/acme/api/rules/branches/no/such")).body).toEqual([]);

    const created = await call(sb, "POST", REPO, {
      body: branchRuleset({
        conditions: {
          ref_name: {
            include: ["refs/heads/release/**", "refs/heads/main"],
            exclude: ["refs/heads/release/old-*"],
          },
        },
        rules: [{ type: "required_linear_history" }],
      }),
    });
    const rules = async (branch: string) =>
      (await call(sb, "GET", `/repos/acme/api/rules/branches/${branch}`)).body.map(
        (rule: { type: string }) => rule.type,
      );
    expect(await rules("release/v1/hotfix")).toEqual(["required_linear_history"]);
    expect(await rules("release/old-1")).toEqual([]);
    expect(await rules("main")).toEqual([
      "deletion",
      "non_fast_forward",
      "required_linear_history",
    ]);
    await call(sb, "PUT", `${REPO}/${created.body.id}`, { body: { enforcement: "evaluate" } });
    expect(await rules("main")).toEqual(["deletion", "non_fast_forward"]);
  });

  it("applies organization rulesets by repository name and custom property", async () => {
    const sb = await sandbox();
    await call(sb, "PUT", `${ORG}/1`, {
      body: {
        conditions: {
          ref_name: { include: ["~ALL"] },
          repository_name: { include: ["~ALL"], exclude: ["web"] },
        },
      },
    });
    expect((await call(sb, "GET", "/repos/acme/web/rules/branches/main")).body).toEqual([]);
    expect((await call(sb, "GET", "/repos/acme/api/rules/branches/release")).body).toHaveLength(2);
    await call(sb, "PUT", `${ORG}/1`, {
      body: {
        conditions: {
          ref_name: { include: ["~ALL"] },
          repository_property: { include: [{ name: "tier", property_values: ["gold"] }] },
        },
      },
    });
    expect((await call(sb, "GET", "/repos/acme/api/rules/branches/main")).body).toEqual([]);
  });
});

describe("what a client reads to name bypass actors", () => {
  it("an organization's teams and installations, and an app by its slug", async () => {
    const sb = await sandbox();
    const teams = await call(sb, "GET", "/orgs/acme/teams", { token: READER });
    expect(teams.body.map((team: { id: number; slug: string }) => [team.id, team.slug])).toEqual([
      [1, "platform"],
      [2, "release-managers"],
      [3, "security"],
    ]);
    expect((await call(sb, "GET", "/orgs/octo-admin/teams")).status).toBe(404);
    const installations = await call(sb, "GET", "/orgs/acme/installations");
    expect(installations.body.total_count).toBe(1);
    expect(installations.body.installations[0]).toMatchObject({
      id: 31001,
      app_id: 15368,
      app_slug: "ci-bot",
    });
    expect((await call(sb, "GET", "/orgs/acme/installations", { token: READER })).status).toBe(404);
    const found = await call(sb, "GET", "/apps/ci-bot", { token: null });
    expect(found.body).toMatchObject({ id: 15368, slug: "ci-bot" });
    expect((await call(sb, "GET", "/apps/nobody")).status).toBe(404);
  });
});
