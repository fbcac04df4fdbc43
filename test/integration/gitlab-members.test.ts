import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import type { Change, Plan } from "../../src/core/plan.js";
import { runInProcess } from "../helpers/cli.js";
import { placeholdersOf } from "../helpers/placeholders.js";
import { ADMIN, configFile } from "../helpers/sandbox.js";
import { gitlabScenario } from "../helpers/gitlab-scenario.js";

/**
 * GitLab members (#36, item 5) end to end against the demo world: acme/api has direct members
 * (mona maintainer, octo-reader reporter, hubot developer until 2030-06-30) beside those it
 * inherits from group acme (octo-admin owner, octo-reader guest, octo-dev developer).
 */

const scenario = gitlabScenario();
const { start, plan, apply, writes } = scenario;

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
      requests: [
        {
          method: "PUT",
          path: "/api/v4/projects/acme%2Fapi/members/6",
          body: { access_level: 30 },
        },
      ],
    });
    scenario.forget();
    const applied = await apply(path);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes().map((request) => `${request.method} ${request.path}`)).toEqual([
      "PUT /api/v4/projects/acme%2Fapi/members/6",
    ]);
    const again = await plan(path);
    expect(again.code).toBe(0);
  });

  it("leaves inherited members alone, and raises an inherited level by a direct membership", async () => {
    await start();
    const path = configFile(`version: 1
projects:
  - project: acme/api
    members:
      mode: authoritative
      users:
        mona: maintainer
        octo-reader: reporter
        hubot: { access_level: developer, expires_at: 2030-06-30 }
        octo-dev: developer
        octo-admin: maintainer
`);
    const same = await plan(path);
    expect(same.code, same.stderr).toBe(0);
    // octo-dev inherits Developer and octo-admin Owner from acme: nothing is written for them.
    expect(named(same.plan, "octo-dev")).toMatchObject({ action: "no-op", requests: [] });
    expect(named(same.plan, "octo-dev")?.notes?.[0]).toContain(
      "inherits developer from a group above acme/api",
    );
    expect(named(same.plan, "octo-admin")).toMatchObject({ action: "no-op", requests: [] });
    expect(same.plan.changes.filter((change) => change.action === "delete")).toEqual([]);

    const raise = configFile(`version: 1
projects:
  - project: acme/api
    members:
      users:
        octo-dev: maintainer
`);
    const raised = await plan(raise);
    expect(named(raised.plan, "octo-dev")).toMatchObject({
      action: "create",
      requests: [
        {
          method: "POST",
          path: "/api/v4/projects/acme%2Fapi/members",
          body: { user_id: 3, access_level: 40 },
        },
      ],
    });
    scenario.forget();
    const applied = await apply(raise);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes().map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /api/v4/projects/acme%2Fapi/members",
    ]);
    expect((await plan(raise)).code).toBe(0);
  });

  it("holds removals over the cap, then removes only direct members", async () => {
    await start();
    const path = configFile(`version: 1
projects:
  - project: acme/api
    members:
      mode: authoritative
      users: {}
`);
    const planned = await plan(path);
    expect(planned.code).toBe(2);
    const deletes = planned.plan.changes.filter((change) => change.action === "delete");
    expect(deletes.map((change) => change.name).sort()).toEqual(["hubot", "mona", "octo-reader"]);
    expect(deletes.every((change) => change.capped !== undefined)).toBe(true);
    scenario.forget();
    const held = await apply(path, "--allow-delete");
    expect(held.code).toBe(1);
    expect(held.stdout + held.stderr).toContain("Held by the removal limit");
    expect(writes()).toEqual([]);
    const applied = await apply(path, "--allow-delete", "--removal-limit", "100");
    expect(applied.code, applied.stderr).toBe(0);
    expect(
      writes()
        .map((request) => `${request.method} ${request.path}`)
        .sort(),
    ).toEqual([
      "DELETE /api/v4/projects/acme%2Fapi/members/2",
      "DELETE /api/v4/projects/acme%2Fapi/members/4",
      "DELETE /api/v4/projects/acme%2Fapi/members/6",
    ]);
    // The inherited members are still there, and the list plans as no change.
    const all = await fetch(`${scenario.world.url}/api/v4/projects/acme%2Fapi/members/all`, {
      headers: { "PRIVATE-TOKEN": "sandbox-admin" },
    });
    const members = (await all.json()) as Array<{ username: string; access_level: number }>;
    expect(members.map((member) => [member.username, member.access_level])).toEqual([
      ["octo-admin", 50],
      ["octo-reader", 10],
      ["octo-dev", 30],
    ]);
    expect((await plan(path)).code).toBe(0);
  });

  it("refuses a username that is no GitLab user at plan time, sending nothing", async () => {
    await start();
    const path = configFile(`version: 1
projects:
  - project: acme/api
    members:
      users:
        no-such-user: developer
        mona: developer
`);
    const planned = await plan(path);
    expect(planned.code).toBe(1);
    expect(named(planned.plan, "no-such-user")?.error?.message).toContain(
      "no-such-user is no GitLab user",
    );
    scenario.forget();
    const applied = await apply(path);
    expect(applied.code).toBe(1);
    expect(applied.stdout + applied.stderr).toContain("no-such-user is no GitLab user");
    // Nothing is sent: not for the user that does not exist, nor the rest of the project's list.
    expect(writes()).toEqual([]);
  });

  it("never removes or demotes a group's last owner", async () => {
    await start();
    const demote = configFile(`version: 1
groups:
  - group: acme
    members:
      users:
        octo-admin: maintainer
`);
    const demoted = await plan(demote);
    expect(demoted.code).toBe(1);
    expect(named(demoted.plan, "octo-admin")?.error?.message).toContain(
      "would leave group acme without an owner",
    );
    const remove = configFile(`version: 1
groups:
  - group: acme
    members:
      mode: authoritative
      users:
        octo-reader: guest
        octo-dev: developer
`);
    const removed = await plan(remove, "--removal-limit", "100");
    expect(named(removed.plan, "octo-admin")?.error?.message).toContain(
      "would leave group acme without an owner",
    );
    scenario.forget();
    const applied = await apply(remove, "--allow-delete", "--removal-limit", "100");
    expect(applied.code).toBe(1);
    expect(writes()).toEqual([]);
    // An owner who is not the last goes (the token's own user, octo-admin, stays: removing it
    // would leave the token unable to see the private group, as on GitLab).
    const second = configFile(`version: 1
groups:
  - group: acme
    members:
      users:
        mona: owner
`);
    expect((await apply(second)).code).toBe(0);
    scenario.forget();
    const without = configFile(`version: 1
groups:
  - group: acme
    members:
      mode: authoritative
      users:
        octo-admin: owner
        octo-reader: guest
        octo-dev: developer
`);
    const removedOwner = await apply(without, "--allow-delete", "--removal-limit", "100");
    expect(removedOwner.code, removedOwner.stdout + removedOwner.stderr).toBe(0);
    expect(writes().map((request) => `${request.method} ${request.path}`)).toEqual([
      "DELETE /api/v4/groups/acme/members/6",
    ]);
    expect((await plan(without)).code).toBe(0);
  });

  it("refuses minimal access on a project when the file is loaded", async () => {
    await start();
    const path = configFile(`version: 1
projects:
  - project: acme/api
    members:
      users:
        mona: minimal_access
`);
    const result = await runInProcess(["validate", "-c", path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("minimal_access (5) is a group membership only");
  });
});

describe("custom roles", () => {
  it("gives a custom role by name and by id, in one write each, reading the instance's roles on self-managed", async () => {
    await start();
    const path = configFile(`version: 1
projects:
  - project: acme/api
    members:
      users:
        mona: { access_level: guest, member_role: Guest + code }
        octo-reader: { access_level: reporter, member_role: null }
        outside-contractor: { access_level: reporter, member_role: 1 }
`);
    const first = await plan(path);
    expect(first.code).toBe(2);
    expect(named(first.plan, "mona")).toMatchObject({
      action: "update",
      diff: [
        { path: "access_level", before: "maintainer", after: "guest" },
        { path: "member_role", before: null, after: "Guest + code" },
      ],
      requests: [{ method: "PUT", body: { access_level: 10, member_role_id: 2 } }],
    });
    expect(named(first.plan, "octo-reader")).toMatchObject({
      action: "update",
      diff: [{ path: "member_role", before: "Reporter + security", after: null }],
      requests: [{ method: "PUT", body: { access_level: 20, member_role_id: null } }],
    });
    expect(named(first.plan, "outside-contractor")).toMatchObject({
      action: "create",
      requests: [{ method: "POST", body: { user_id: 5, access_level: 20, member_role_id: 1 } }],
    });
    // Self-managed: the group's roles answer 400, the instance's are read once for the plan.
    const reads = scenario.requests.filter((request) => request.path.includes("member_roles"));
    expect(reads.map((request) => request.path)).toEqual([
      "/api/v4/groups/acme/member_roles",
      "/api/v4/member_roles",
    ]);
    expect((await apply(path)).code).toBe(0);
    expect((await plan(path)).code).toBe(0);
  });

  it("refuses at plan time a role that does not exist or whose base level is not the level written", async () => {
    await start();
    const path = configFile(`version: 1
projects:
  - project: acme/api
    members:
      users:
        mona: { access_level: maintainer, member_role: Guest + code }
        hubot: { access_level: developer, member_role: Nobody }
`);
    const first = await plan(path);
    expect(first.code).toBe(1);
    expect(named(first.plan, "mona")?.error?.message).toMatch(
      /custom role Guest \+ code has base access level guest, not maintainer/,
    );
    expect(named(first.plan, "hubot")?.error?.message).toMatch(
      /custom role Nobody does not exist for project acme\/api; its roles: Reporter \+ security \(1\), Guest \+ code \(2\)/,
    );
    expect((await apply(path)).code).toBe(1);
    expect(writes()).toEqual([]);
  });

  it("takes the role away where another level is written without one, as GitLab keeps no other level beside it", async () => {
    await start();
    const path = configFile(`version: 1
projects:
  - project: acme/api
    members:
      users:
        octo-reader: developer
`);
    const first = await plan(path);
    expect(named(first.plan, "octo-reader")).toMatchObject({
      action: "update",
      diff: [
        { path: "access_level", before: "reporter", after: "developer" },
        { path: "member_role", before: "Reporter + security", after: null },
      ],
      requests: [{ method: "PUT", body: { access_level: 30, member_role_id: null } }],
    });
    expect((await apply(path)).code).toBe(0);
    expect((await plan(path)).code).toBe(0);
  });

  it("reads a top-level group's roles on GitLab.com", async () => {
    await start({ gitlabOffering: "com" });
    const path = configFile(`version: 1
groups:
  - group: acme/platform
    members:
      users:
        mona: { access_level: developer, member_role: Acme release manager }
`);
    const first = await plan(path);
    expect(named(first.plan, "mona")).toMatchObject({
      action: "create",
      requests: [{ method: "POST", body: { access_level: 30, member_role_id: 3 } }],
    });
    expect(
      scenario.requests
        .filter((request) => request.path.includes("member_roles"))
        .map((r) => r.path),
    ).toEqual(["/api/v4/groups/acme/member_roles"]);
    expect((await apply(path)).code).toBe(0);
    const again = await plan(path);
    expect(again.code).toBe(0);
    // The role shows in the members listing GitLab answers.
    const listed = (await (
      await fetch(`${scenario.world.url}/api/v4/groups/acme%2Fplatform/members`, {
        headers: { "PRIVATE-TOKEN": ADMIN },
      })
    ).json()) as Array<{ username: string; member_role?: { name: string } }>;
    expect(listed.find((member) => member.username === "mona")?.member_role?.name).toBe(
      "Acme release manager",
    );
  });
});

describe("shared_with_groups", () => {
  it("adds a share with one POST, and changes one by a delete and a new share", async () => {
    await start();
    const path = configFile(`version: 1
projects:
  - project: acme/api
    shared_with_groups:
      groups:
        partners: { group_access: maintainer, expires_at: 2031-01-15 }
        acme/platform: reporter
`);
    const planned = await plan(path);
    expect(planned.code).toBe(2);
    const share = (name: string) =>
      planned.plan.changes.find(
        (change) => change.kind === "shared_with_groups" && change.name === name,
      );
    expect(share("acme/platform")).toMatchObject({
      action: "create",
      requests: [
        {
          method: "POST",
          path: "/api/v4/projects/acme%2Fapi/share",
          body: { group_id: 3, group_access: 20 },
        },
      ],
    });
    expect(share("partners")).toMatchObject({
      action: "update",
      diff: [
        { path: "group_access", before: "developer", after: "maintainer" },
        { path: "expires_at", before: null, after: "2031-01-15" },
      ],
      requests: [
        { method: "DELETE", path: "/api/v4/projects/acme%2Fapi/share/2" },
        {
          method: "POST",
          path: "/api/v4/projects/acme%2Fapi/share",
          body: { group_id: 2, group_access: 40, expires_at: "2031-01-15" },
        },
      ],
    });
    expect(share("partners")?.notes?.[0]).toContain("GitLab has no update of a share");
    scenario.forget();
    const applied = await apply(path);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(writes().map((request) => `${request.method} ${request.path}`)).toEqual([
      "DELETE /api/v4/projects/acme%2Fapi/share/2",
      "POST /api/v4/projects/acme%2Fapi/share",
      "POST /api/v4/projects/acme%2Fapi/share",
    ]);
    expect((await plan(path)).code).toBe(0);
  });

  it("refuses a group the project lives in, and a group that does not exist, at plan time", async () => {
    await start();
    const path = configFile(`version: 1
projects:
  - project: acme/api
    shared_with_groups:
      groups:
        acme: developer
        no-such-group: developer
`);
    const planned = await plan(path);
    expect(planned.code).toBe(1);
    const error = (name: string) =>
      planned.plan.changes.find(
        (change) => change.kind === "shared_with_groups" && change.name === name,
      )?.error?.message;
    expect(error("acme")).toContain("GitLab refuses to share a project with the group it is in");
    expect(error("no-such-group")).toContain("group no-such-group does not exist");
    // Written by its id, the project's group is learned from its answer.
    const byId = configFile(`version: 1
projects:
  - project: 1
    shared_with_groups:
      groups:
        acme: developer
`);
    const planById = await plan(byId);
    expect(planById.code).toBe(1);
    expect(
      planById.plan.changes.find((change) => change.kind === "shared_with_groups")?.error?.message,
    ).toContain("GitLab refuses to share a project with the group it is in");
  });
});

describe("export", () => {
  it("writes members and shares of the demo world's projects and groups, which plan as no change", async () => {
    await start();
    const out = configFile("", "acme-gitlab.yaml");
    const exported = await runInProcess([
      "export",
      "--group",
      "acme",
      "--sandbox-url",
      scenario.world.url,
      "--out",
      out,
    ]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toMatch(
      /members:\n\s+users:\n\s+octo-admin: owner\n\s+octo-reader: guest\n\s+octo-dev: developer/,
    );
    expect(text).toMatch(/hubot:\n\s+access_level: developer\n\s+expires_at: "?2030-06-30"?/);
    expect(text).toMatch(/shared_with_groups:\n\s+groups:\n\s+partners: developer/);
    expect(text).toMatch(/partners:\n\s+group_access: reporter\n\s+expires_at: "?2030-12-31"?/);
    // The hooks' tokens and headers are placeholders the export wrote, to set (gitlab_hook).
    const planned = await runInProcess(["plan", "-c", out, "--sandbox-url", scenario.world.url], {
      cwd: dirname(out),
      env: placeholdersOf(text),
    });
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });
});
