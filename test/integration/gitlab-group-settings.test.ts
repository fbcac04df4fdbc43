import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { configFile } from "../helpers/sandbox.js";
import { gitlabScenario } from "../helpers/gitlab-scenario.js";

/**
 * GitLab group settings (#37, item 1) end to end against the demo world's group acme and its
 * subgroup acme/platform: only the fields written that differ are sent, in one PUT; the default
 * branch protection is compared as written and sent whole; a visibility change waits for
 * --allow-visibility, and a subgroup wider than its parent is refused at plan time; a Premium
 * field on a Free instance and a field only top-level groups have are reported, never written.
 */

const scenario = gitlabScenario({ forgetBefore: ["apply"] });
const { start, plan, apply, writes } = scenario;

function config(group: string, settings: string): string {
  return configFile(`version: 1
groups:
  - group: ${group}
    settings: ${settings}
`);
}

describe("GitLab group settings", () => {
  it("sends only the changed fields in one PUT, the protection defaults whole, and plans no change after it", async () => {
    await start();
    const path = config(
      "acme",
      `{ description: "Acme's engineering group", request_access_enabled: true, two_factor_grace_period: 24, default_branch_protection_defaults: { allowed_to_push: [maintainer, developer] } }`,
    );
    const first = await plan(path);
    expect(first.code).toBe(2);
    expect(first.plan.changes.map((change) => change.requests)).toEqual([
      [
        {
          method: "PUT",
          path: "/api/v4/groups/acme",
          body: {
            request_access_enabled: true,
            two_factor_grace_period: 24,
            default_branch_protection_defaults: {
              allowed_to_push: [{ access_level: 30 }, { access_level: 40 }],
              allowed_to_merge: [{ access_level: 40 }],
              allow_force_push: false,
              developer_can_initial_push: false,
            },
          },
        },
      ],
    ]);
    const applied = await apply(path);
    expect(applied.code).toBe(0);
    expect(writes().map((request) => [request.method, request.path, request.operation])).toEqual([
      ["PUT", "/api/v4/groups/acme", "PUT /api/v4/groups/{id}"],
    ]);
    expect((await plan(path)).code).toBe(0);
  });

  it("applies a visibility change only with --allow-visibility, and refuses a subgroup wider than its parent at plan time", async () => {
    await start();
    const wider = await plan(config("acme/platform", "{ visibility: internal }"));
    expect(wider.code).toBe(1);
    expect(wider.plan.changes[0]?.error?.message).toBe(
      `visibility internal is wider than the parent group acme's (private): GitLab refuses it ("internal is not allowed since the parent group has a private visibility.")`,
    );
    const path = config("acme", "{ visibility: internal }");
    const planned = await plan(path);
    expect(planned.plan.changes[0]).toMatchObject({ name: "visibility", gate: "visibility" });
    const skipped = await apply(path);
    expect(skipped.code).toBe(1);
    expect(writes()).toEqual([]);
    expect((await apply(path, "--allow-visibility")).code).toBe(0);
    expect(writes().map((request) => request.body)).toEqual([{ visibility: "internal" }]);
    // Now the subgroup may widen as far as its parent.
    expect((await plan(config("acme/platform", "{ visibility: internal }"))).code).toBe(2);
  });

  it("reports a Premium field on Free and a top-level field on a subgroup, writing nothing", async () => {
    await start({ gitlabTier: "free" });
    const free = await plan(config("acme", "{ membership_lock: true }"));
    expect(free.code).toBe(1);
    expect(free.plan.changes[0]?.error?.message).toBe(
      "GET /api/v4/groups/acme answered without membership_lock (GitLab shows membership_lock only where the tier has it (Premium) and drops it from a write elsewhere), so it cannot be compared",
    );
    const sub = await plan(
      config("acme/platform", "{ prevent_sharing_groups_outside_hierarchy: true }"),
    );
    expect(sub.plan.changes[0]?.error?.message).toContain(
      "only top-level groups have prevent_sharing_groups_outside_hierarchy",
    );
    expect((await apply(config("acme", "{ membership_lock: true }"))).code).toBe(1);
    expect(writes()).toEqual([]);
  });

  it("creates a subgroup behind --allow-create, its other keys waiting for it, and manages it on the next plan", async () => {
    await start();
    const path = configFile(`version: 1
groups:
  - group: acme/security
    settings: { create: true, description: Security tooling, subgroup_creation_level: owner }
    members:
      users:
        mona: developer
`);
    const first = await plan(path);
    expect(first.code).toBe(2);
    expect(first.plan.changes).toMatchObject([
      {
        kind: "group_settings",
        action: "create",
        gate: "create",
        requests: [
          {
            method: "POST",
            path: "/api/v4/groups",
            body: {
              name: "security",
              path: "security",
              parent_id: 1,
              description: "Security tooling",
              subgroup_creation_level: "owner",
            },
          },
        ],
      },
      { kind: "members", action: "report" },
    ]);
    expect(first.plan.changes[1]?.findings?.[0]).toMatch(
      /planned once acme\/security exists: this plan creates it \(settings\.create\)/,
    );
    const skipped = await apply(path);
    expect(skipped.code).toBe(1);
    expect(writes()).toEqual([]);
    expect((await apply(path, "--allow-create")).code).toBe(0);
    expect(writes().map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /api/v4/groups",
    ]);
    // It exists now: the settings plan as no change, and the member is added.
    const second = await plan(path);
    expect(second.plan.changes).toMatchObject([
      { kind: "group_settings", action: "no-op" },
      { kind: "members", name: "mona", action: "create" },
    ]);
    expect((await apply(path)).code).toBe(0);
    expect((await plan(path)).code).toBe(0);
  });

  it("refuses create: true on a top-level group at load, and under a parent that does not exist at plan time", async () => {
    await start();
    const topLevel = await runInProcess(["validate", "-c", config("newcorp", "{ create: true }")]);
    expect(topLevel.code).toBe(1);
    expect(topLevel.stderr).toMatch(/settings\.create: create: true makes a subgroup/);
    const orphan = await plan(config("nowhere/team", "{ create: true }"));
    expect(orphan.code).toBe(1);
    expect(orphan.plan.changes[0]?.error?.message).toMatch(
      /group nowhere\/team cannot be created: its parent nowhere was not found/,
    );
  });
});
