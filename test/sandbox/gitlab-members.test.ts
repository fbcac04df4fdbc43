import { describe, expect, it } from "vitest";
import { call, sandbox } from "./helpers.js";

/**
 * The members and shares areas' writes, sent deliberately wrong (this folder's sandbox records
 * nothing, so requests GitLab refuses are not held against the test): GitLab's answers for a member
 * that exists, a level the endpoint does not take, a level below an inherited one, the last owner,
 * a reader's token, and a share GitLab refuses. Demo world: acme (octo-admin owner, octo-reader
 * guest, octo-dev developer), its subgroup platform, partners (octo-admin owner); acme/api (id 1)
 * with direct members mona (6) maintainer, octo-reader (2) reporter, hubot (4) developer.
 */
describe("members writes", () => {
  it("add, change and remove a project's member as GitLab answers them", async () => {
    const sb = await sandbox();
    const added = await call(sb, "POST", "/api/v4/projects/1/members", {
      body: { username: "outside-contractor", access_level: 30, expires_at: "2031-01-15" },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      id: 5,
      username: "outside-contractor",
      access_level: 30,
      expires_at: "2031-01-15",
    });
    const again = await call(sb, "POST", "/api/v4/projects/1/members", {
      body: { user_id: 5, access_level: 30 },
    });
    expect(again).toMatchObject({ status: 409, body: { message: "Member already exists" } });
    const changed = await call(sb, "PUT", "/api/v4/projects/1/members/5", {
      body: { access_level: 40, expires_at: null },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ access_level: 40, expires_at: null });
    expect((await call(sb, "DELETE", "/api/v4/projects/1/members/5")).status).toBe(204);
    expect(await call(sb, "DELETE", "/api/v4/projects/1/members/5")).toMatchObject({
      status: 404,
      body: { message: "404 Not found" },
    });
    expect(
      await call(sb, "POST", "/api/v4/projects/1/members", {
        body: { user_id: 999, access_level: 30 },
      }),
    ).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
  });

  it("refuse the levels an endpoint does not take, and one below an inherited level", async () => {
    const sb = await sandbox();
    const notListed = { message: { access_level: ["is not included in the list"] } };
    for (const [path, level] of [
      ["/api/v4/projects/1/members", 5],
      ["/api/v4/projects/1/members", 0],
      ["/api/v4/groups/acme/members", 60],
      ["/api/v4/groups/acme%2Fplatform/members", 5],
    ] as const) {
      expect(
        await call(sb, "POST", path, {
          body: { username: "outside-contractor", access_level: level },
        }),
      ).toMatchObject({ status: 400, body: notListed });
    }
    expect(
      (
        await call(sb, "POST", "/api/v4/groups/acme/members", {
          body: { username: "mona", access_level: 5 },
        })
      ).status,
    ).toBe(201);
    expect(
      await call(sb, "POST", "/api/v4/projects/1/members", {
        body: { username: "octo-dev", access_level: 20 },
      }),
    ).toMatchObject({
      status: 400,
      body: {
        message: {
          access_level: [
            "should be greater than or equal to Developer inherited membership from group Acme",
          ],
        },
      },
    });
    expect(
      (
        await call(sb, "POST", "/api/v4/projects/1/members", {
          body: { username: "octo-dev", access_level: 30 },
        })
      ).status,
    ).toBe(201);
    expect(
      await call(sb, "POST", "/api/v4/projects/1/members", {
        body: { username: "outside-contractor", access_level: "developer" },
      }),
    ).toMatchObject({ status: 400, body: { error: "access_level is invalid" } });
    expect(
      await call(sb, "PUT", "/api/v4/projects/1/members/6", {
        body: { access_level: 30, expires_at: "2001-01-01" },
      }),
    ).toMatchObject({
      status: 400,
      body: { message: { expires_at: ["cannot be a date in the past"] } },
    });
  });

  it("keep a group's last owner, and let only those who may write members do so", async () => {
    const sb = await sandbox();
    expect((await call(sb, "DELETE", "/api/v4/groups/partners/members/1")).status).toBe(403);
    expect(
      (
        await call(sb, "PUT", "/api/v4/groups/partners/members/1", {
          body: { access_level: 40 },
        })
      ).status,
    ).toBe(403);
    // A subgroup's owner may go: the owner of the group above still owns it.
    expect(
      (
        await call(sb, "POST", "/api/v4/groups/acme%2Fplatform/members", {
          body: { username: "hubot", access_level: 50 },
        })
      ).status,
    ).toBe(201);
    expect((await call(sb, "DELETE", "/api/v4/groups/acme%2Fplatform/members/4")).status).toBe(204);
    const reader = await call(sb, "POST", "/api/v4/projects/1/members", {
      token: "sandbox-reader",
      body: { username: "mona", access_level: 30 },
    });
    expect(reader.status).toBe(403);
    expect(await call(sb, "GET", "/api/v4/users?username=MONA")).toMatchObject({
      status: 200,
      body: [{ id: 6, username: "mona" }],
    });
    expect((await call(sb, "GET", "/api/v4/users?username=nobody")).body).toEqual([]);
  });
});

describe("shares", () => {
  it("share a project and a group with a group, list them in their answers, and refuse what GitLab refuses", async () => {
    const sb = await sandbox();
    expect((await call(sb, "GET", "/api/v4/projects/1")).body).toMatchObject({
      shared_with_groups: [
        { group_id: 2, group_full_path: "partners", group_access_level: 30, expires_at: null },
      ],
    });
    expect(
      await call(sb, "POST", "/api/v4/projects/1/share", {
        body: { group_id: 1, group_access: 30 },
      }),
    ).toMatchObject({
      status: 409,
      body: {
        message: "Project cannot be shared with the group it is in or one of its ancestors.",
      },
    });
    expect(
      (
        await call(sb, "POST", "/api/v4/projects/1/share", {
          body: { group_id: 2, group_access: 30 },
        })
      ).status,
    ).toBe(409);
    expect(
      await call(sb, "POST", "/api/v4/projects/1/share", {
        body: { group_id: 3, group_access: 5 },
      }),
    ).toMatchObject({ status: 400, body: { error: "group_access does not have a valid value" } });
    const made = await call(sb, "POST", "/api/v4/projects/1/share", {
      body: { group_id: 3, group_access: 20, expires_at: "2031-01-15" },
    });
    expect(made).toMatchObject({
      status: 201,
      body: { project_id: 1, group_id: 3, group_access: 20, expires_at: "2031-01-15" },
    });
    expect((await call(sb, "DELETE", "/api/v4/projects/1/share/3")).status).toBe(204);
    expect((await call(sb, "DELETE", "/api/v4/projects/1/share/3")).status).toBe(404);
    const group = await call(sb, "POST", "/api/v4/groups/partners/share", {
      body: { group_id: 1, group_access: 10 },
    });
    expect(group.status).toBe(201);
    expect(group.body).toMatchObject({
      full_path: "partners",
      shared_with_groups: [{ group_id: 1, group_full_path: "acme", group_access_level: 10 }],
    });
    expect((await call(sb, "GET", "/api/v4/groups/partners")).body).toMatchObject({
      shared_with_groups: [{ group_id: 1 }],
    });
    expect(
      (
        await call(sb, "POST", "/api/v4/groups/partners/share", {
          token: "sandbox-reader",
          body: { group_id: 1, group_access: 10 },
        })
      ).status,
    ).not.toBe(201);
  });
});

/**
 * Custom roles (Ultimate): the demo's instance roles "Reporter + security" (1, reporter) and
 * "Guest + code" (2, guest), and acme's "Acme release manager" (3, developer); octo-reader has
 * role 1 in acme/api. The rules are GitLab EE's MemberRoles::MemberRoleRelation.
 */
describe("custom roles", () => {
  it("show a member's role, keep a level to its role's base level, and take a role away with null", async () => {
    const sb = await sandbox();
    const listed = await call(sb, "GET", "/api/v4/projects/1/members");
    const reader = (listed.body as Array<Record<string, unknown>>).find(
      (member) => member.username === "octo-reader",
    );
    expect(reader?.member_role).toMatchObject({ id: 1, name: "Reporter + security" });
    const mona = (listed.body as Array<Record<string, unknown>>).find(
      (member) => member.username === "mona",
    );
    expect(mona).not.toHaveProperty("member_role");
    expect(
      await call(sb, "PUT", "/api/v4/projects/1/members/2", { body: { access_level: 30 } }),
    ).toMatchObject({
      status: 400,
      body: {
        message: {
          access_level: ["cannot be changed because of an existing association with a custom role"],
        },
      },
    });
    expect(
      await call(sb, "PUT", "/api/v4/projects/1/members/6", {
        body: { access_level: 40, member_role_id: 2 },
      }),
    ).toMatchObject({
      status: 400,
      body: {
        message: {
          member_role_id: [
            "the custom role's base access level does not match the current access level",
          ],
        },
      },
    });
    expect(
      await call(sb, "PUT", "/api/v4/projects/1/members/6", {
        body: { access_level: 40, member_role_id: 99 },
      }),
    ).toMatchObject({ status: 500 });
    const cleared = await call(sb, "PUT", "/api/v4/projects/1/members/2", {
      body: { access_level: 30, member_role_id: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty("member_role");
  });

  it("list the instance's roles on self-managed and a top-level group's on GitLab.com", async () => {
    const managed = await sandbox();
    expect(await call(managed, "GET", "/api/v4/groups/acme/member_roles")).toMatchObject({
      status: 400,
    });
    const instance = await call(managed, "GET", "/api/v4/member_roles");
    expect(instance.status).toBe(200);
    expect((instance.body as Array<{ name: string }>).map((role) => role.name)).toEqual([
      "Reporter + security",
      "Guest + code",
    ]);
    const com = await sandbox({ gitlabOffering: "com" });
    expect(await call(com, "GET", "/api/v4/member_roles")).toMatchObject({ status: 400 });
    const group = await call(com, "GET", "/api/v4/groups/acme%2Fplatform/member_roles");
    expect(group.status).toBe(200);
    expect(group.body).toEqual([
      expect.objectContaining({
        id: 3,
        name: "Acme release manager",
        group_id: 1,
        base_access_level: 30,
        admin_merge_request: true,
        read_code: false,
      }),
    ]);
    // A role of another hierarchy is refused.
    expect(
      await call(com, "POST", "/api/v4/groups/partners/members", {
        body: { username: "mona", access_level: 30, member_role_id: 3 },
      }),
    ).toMatchObject({
      status: 400,
      body: { message: { group: ["must be in same hierarchy as custom role's namespace"] } },
    });
  });

  it("drop a role below Ultimate, where custom roles are not enabled", async () => {
    const sb = await sandbox({ gitlabTier: "premium" });
    const added = await call(sb, "POST", "/api/v4/projects/1/members", {
      body: { username: "outside-contractor", access_level: 20, member_role_id: 1 },
    });
    expect(added.status).toBe(201);
    expect(added.body).not.toHaveProperty("member_role");
    expect(await call(sb, "GET", "/api/v4/member_roles")).toMatchObject({ status: 403 });
  });
});
