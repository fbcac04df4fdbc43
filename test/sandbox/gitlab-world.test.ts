import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { call, DEV, READER, sandbox } from "./helpers.js";

/**
 * GitLab's world as GitLab's REST docs describe it: subgroups and full paths, the listings of a
 * group's projects and subgroups, members with inheritance, and visibility by membership.
 */

/** A seed with a group tree, an archived project, and a member of one project only. */
function treeSeed(): string {
  const dir = mkdtempSync(join(tmpdir(), "forgeplan-seed-"));
  const path = join(dir, "seed.yaml");
  writeFileSync(
    path,
    [
      "users:",
      "  - { login: alice, id: 1, token: alice-token }",
      "  - { login: bob, id: 2, token: bob-token }",
      "  - { login: carol, id: 3, token: carol-token }",
      "groups:",
      "  - { id: 10, path: top, name: Top, members: { alice: owner } }",
      "  - { id: 11, path: mid, name: Mid, parent: top, members: { carol: minimal_access } }",
      "  - { id: 12, path: low, name: Low, parent: top/mid }",
      "projects:",
      "  - { id: 20, group: top, path: a, name: a, created_at: '2026-01-03T00:00:00Z' }",
      "  - { id: 21, group: top/mid, path: b, name: b, archived: true }",
      "  - { id: 22, group: top/mid/low, path: c, name: c, members: { bob: developer } }",
      "",
    ].join("\n"),
  );
  return path;
}

const ids = (body: Array<{ id: number }>) => body.map((item) => item.id);

describe("GitLab subgroups", () => {
  it("shows a subgroup by id and by URL-encoded full path, with its parent and full names", async () => {
    const sb = await sandbox();
    for (const at of ["3", "acme%2Fplatform", "ACME%2Fplatform"]) {
      const { status, body } = await call(sb, "GET", `/api/v4/groups/${at}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        id: 3,
        path: "platform",
        name: "Platform",
        full_path: "acme/platform",
        full_name: "Acme / Platform",
        parent_id: 1,
        visibility: "private",
      });
    }
    expect((await call(sb, "GET", "/api/v4/groups/1")).body.parent_id).toBeNull();
    expect((await call(sb, "GET", "/api/v4/groups/acme%2Fnothing")).status).toBe(404);
  });

  it("keeps a project in a subgroup by its full path, with archived and visibility", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "GET", "/api/v4/projects/acme%2Fplatform%2Finfra");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: 3,
      path_with_namespace: "acme/platform/infra",
      name_with_namespace: "Acme / Platform / infra",
      archived: false,
      visibility: "private",
      namespace: { id: 3, full_path: "acme/platform", parent_id: 1 },
    });
    // The demo world's earlier records are as they were.
    expect((await call(sb, "GET", "/api/v4/projects/acme%2Fapi")).body.id).toBe(1);
  });

  it("refuses a subgroup whose parent is not listed before it, naming the line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forgeplan-seed-"));
    const path = join(dir, "seed.yaml");
    writeFileSync(path, "groups:\n  - { id: 1, path: a, name: A, parent: nowhere }\n");
    await expect(sandbox({ seed: path })).rejects.toThrow(
      /seed\.yaml:2: groups\[0\]\.parent: unknown group 'nowhere'/,
    );
    writeFileSync(path, "users:\n  - { login: alice, id: 1, token: alice-token }\n");
    await expect(sandbox({ seed: path, generateProjects: 2 })).rejects.toThrow(
      "--generate-projects needs a group in the seed",
    );
  });
});

describe("a group's listings", () => {
  it("lists a group's own projects, newest first by default, and its subgroups' with include_subgroups", async () => {
    const sb = await sandbox({ seed: treeSeed() });
    const own = await call(sb, "GET", "/api/v4/groups/top/projects", { token: "alice-token" });
    expect(ids(own.body)).toEqual([20]);
    const deep = await call(sb, "GET", "/api/v4/groups/top/projects?include_subgroups=true", {
      token: "alice-token",
    });
    // created_at desc; the two of the same time by id, descending too.
    expect(ids(deep.body)).toEqual([20, 22, 21]);
    const byId = await call(
      sb,
      "GET",
      "/api/v4/groups/10/projects?include_subgroups=true&order_by=id&sort=asc&with_shared=false",
      { token: "alice-token" },
    );
    expect(ids(byId.body)).toEqual([20, 21, 22]);
    const archived = await call(
      sb,
      "GET",
      "/api/v4/groups/top/projects?include_subgroups=true&archived=true",
      { token: "alice-token" },
    );
    expect(ids(archived.body)).toEqual([21]);
    const active = await call(
      sb,
      "GET",
      "/api/v4/groups/top/projects?include_subgroups=true&archived=false&order_by=id&sort=asc",
      { token: "alice-token" },
    );
    expect(ids(active.body)).toEqual([20, 22]);
    const simple = await call(sb, "GET", "/api/v4/groups/top/projects?simple=true", {
      token: "alice-token",
    });
    expect(simple.body[0]).toMatchObject({ id: 20, path_with_namespace: "top/a" });
    expect(simple.body[0]).not.toHaveProperty("visibility");
    expect(simple.body[0]).not.toHaveProperty("archived");
    const bad = await call(sb, "GET", "/api/v4/groups/top/projects?order_by=stars", {
      token: "alice-token",
    });
    expect([bad.status, bad.body]).toEqual([
      400,
      { error: "order_by does not have a valid value" },
    ]);
  });

  it("lists direct subgroups and every descendant group", async () => {
    const sb = await sandbox({ seed: treeSeed() });
    const sub = await call(sb, "GET", "/api/v4/groups/top/subgroups", { token: "alice-token" });
    expect(sub.body.map((g: { full_path: string }) => g.full_path)).toEqual(["top/mid"]);
    const all = await call(sb, "GET", "/api/v4/groups/10/descendant_groups", {
      token: "alice-token",
    });
    expect(all.body.map((g: { full_path: string }) => g.full_path)).toEqual([
      "top/mid/low",
      "top/mid",
    ]);
    const demo = await sandbox();
    const platform = await call(demo, "GET", "/api/v4/groups/acme/subgroups");
    expect(ids(platform.body)).toEqual([3]);
    const groups = await call(demo, "GET", "/api/v4/groups", { token: DEV });
    expect(groups.body.map((g: { full_path: string }) => g.full_path)).toEqual([
      "acme",
      "acme/platform",
    ]);
  });

  it("shows a project to members of the groups above it and to its own members only", async () => {
    const sb = await sandbox({ seed: treeSeed() });
    // alice owns top: she sees everything below it (inheritance).
    expect((await call(sb, "GET", "/api/v4/projects/22", { token: "alice-token" })).status).toBe(
      200,
    );
    // bob is a member of project c only: he sees it, not its groups' other projects or the groups.
    expect((await call(sb, "GET", "/api/v4/projects/22", { token: "bob-token" })).status).toBe(200);
    expect((await call(sb, "GET", "/api/v4/projects/20", { token: "bob-token" })).status).toBe(404);
    expect((await call(sb, "GET", "/api/v4/groups/top", { token: "bob-token" })).status).toBe(404);
    const listed = await call(sb, "GET", "/api/v4/projects", { token: "bob-token" });
    expect(ids(listed.body)).toEqual([22]);
    // Minimal access shows the group, none of its projects.
    expect(
      (await call(sb, "GET", "/api/v4/groups/top%2Fmid", { token: "carol-token" })).status,
    ).toBe(200);
    expect((await call(sb, "GET", "/api/v4/projects/21", { token: "carol-token" })).status).toBe(
      404,
    );
    const carol = await call(sb, "GET", "/api/v4/groups/top%2Fmid/projects", {
      token: "carol-token",
    });
    expect(carol.body).toEqual([]);
  });

  it("lets the demo world's acme members see acme/platform/infra by inheritance", async () => {
    const sb = await sandbox();
    const dev = await call(sb, "GET", "/api/v4/groups/acme/projects?include_subgroups=true", {
      token: DEV,
    });
    expect(ids(dev.body).sort()).toEqual([1, 2, 3]);
    expect((await call(sb, "GET", "/api/v4/projects/3", { token: READER })).status).toBe(200);
  });
});

describe("members", () => {
  it("lists direct members, and with /members/all inherited ones too, each at its highest level", async () => {
    const sb = await sandbox();
    const levels = (body: Array<{ username: string; access_level: number }>) =>
      Object.fromEntries(body.map((item) => [item.username, item.access_level]));
    const direct = await call(sb, "GET", "/api/v4/groups/acme%2Fplatform/members");
    expect(levels(direct.body)).toEqual({ "octo-reader": 20 });
    const all = await call(sb, "GET", "/api/v4/groups/acme%2Fplatform/members/all");
    // octo-reader is a Guest of acme and a Reporter here: the higher one is answered.
    expect(levels(all.body)).toEqual({ "octo-admin": 50, "octo-reader": 20, "octo-dev": 30 });
    expect(all.body[0]).toMatchObject({
      id: 1,
      username: "octo-admin",
      state: "active",
      access_level: 50,
      membership_state: "active",
      expires_at: null,
    });
    const project = await call(sb, "GET", "/api/v4/projects/3/members");
    expect(levels(project.body)).toEqual({ mona: 40 });
    const projectAll = await call(
      sb,
      "GET",
      "/api/v4/projects/acme%2Fplatform%2Finfra/members/all",
    );
    expect(levels(projectAll.body)).toEqual({
      "octo-admin": 50,
      "octo-reader": 20,
      "octo-dev": 30,
      mona: 40,
    });
    expect((await call(sb, "GET", "/api/v4/projects/3/members", { token: null })).status).toBe(401);
  });
});

describe("tiers", () => {
  it("answers epics 403 on Free and related epics 403 below Ultimate, after finding the group", async () => {
    const free = await sandbox({ gitlabTier: "free" });
    expect(await call(free, "GET", "/api/v4/groups/1/epics")).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect((await call(free, "GET", "/api/v4/groups/404/epics")).status).toBe(404);
    // Boards are Free.
    expect((await call(free, "GET", "/api/v4/projects/1/boards")).status).toBe(200);
    const premium = await sandbox({ gitlabTier: "premium" });
    expect((await call(premium, "GET", "/api/v4/groups/1/epics/1")).status).toBe(200);
    expect((await call(premium, "GET", "/api/v4/groups/1/epics/1/related_epics")).status).toBe(403);
    expect((await call(premium, "DELETE", "/api/v4/groups/1/epics/1/related_epics/1")).status).toBe(
      403,
    );
    const ultimate = await sandbox();
    expect((await call(ultimate, "GET", "/api/v4/groups/1/epics/1/related_epics")).status).toBe(
      200,
    );
    await expect(sandbox({ gitlabTier: "gold" as never })).rejects.toThrow(
      /gitlabTier must be one of free, premium, ultimate/,
    );
  });
});

describe("generated projects", () => {
  it("spreads them over subgroups and, with the full profile, gives each the state a drift check reads", async () => {
    const sb = await sandbox({
      generateProjects: 4,
      generateProjectGroups: 2,
      generateProfile: "full",
    });
    const team = await call(
      sb,
      "GET",
      "/api/v4/groups/acme%2Fteam-002/projects?order_by=id&sort=asc",
    );
    expect(team.body.map((project: { path: string }) => project.path)).toEqual([
      "project-00002",
      "project-00004",
    ]);
    const at = "/api/v4/projects/acme%2Fteam-001%2Fproject-00001";
    const branches = await call(sb, "GET", `${at}/protected_branches`);
    expect(branches.body).toMatchObject([
      {
        name: "main",
        push_access_levels: [{ access_level: 40 }],
        merge_access_levels: [{ access_level: 30 }],
      },
    ]);
    const members = await call(sb, "GET", `${at}/members`);
    expect(members.body).toMatchObject([{ username: "octo-dev", access_level: 30 }]);
    const variables = await call(sb, "GET", `${at}/variables`);
    expect(variables.body).toMatchObject([{ key: "DEPLOY_ENV", value: "production" }]);
    const labels = await call(sb, "GET", `${at}/labels?include_ancestor_groups=false`);
    expect(labels.body.map((label: { name: string }) => label.name)).toEqual([
      "enhancement",
      "flaky-test",
    ]);
    const hooks = await call(sb, "GET", `${at}/hooks`);
    expect(hooks.body).toMatchObject([
      {
        url: "https://ci.acme.example/hooks/forge",
        push_events: true,
        merge_requests_events: true,
      },
    ]);
  });

  it("adds nothing but the projects under the basic profile", async () => {
    const sb = await sandbox({ generateProjects: 1 });
    const at = "/api/v4/projects/acme%2Fproject-00001";
    expect((await call(sb, "GET", `${at}/protected_branches`)).body).toEqual([]);
    expect((await call(sb, "GET", `${at}/hooks`)).body).toEqual([]);
  });
});
