import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configFile } from "../helpers/sandbox.js";
import { call, DEV, READER, sandbox } from "./helpers.js";
import { check, enterprise, enterpriseSchemas, responseSchema } from "./openapi-check.js";

/**
 * The sandbox's collaborators, invitations, teams, memberships and roles: GitHub's answers, status
 * codes and refusals, including those the kinds' conformance suite never meets.
 */

const REPO = "/repos/acme/api";

describe("collaborators and invitations", () => {
  it("grants an organization member at once (204) and invites anyone else (201)", async () => {
    const sb = await sandbox();
    const member = await call(sb, "PUT", `${REPO}/collaborators/octo-reader`, {
      body: { permission: "triage" },
    });
    expect(member.status).toBe(204);
    const outsider = await call(sb, "PUT", `${REPO}/collaborators/outside-contractor`, {
      body: { permission: "push" },
    });
    expect(outsider.status).toBe(201);
    expect(outsider.body).toMatchObject({
      invitee: { login: "outside-contractor" },
      permissions: "write",
    });
    // The expired invitation (3) was replaced by the new one.
    const invitations = await call(sb, "GET", `${REPO}/invitations`);
    expect(invitations.body.map((item: { id: number }) => item.id)).toEqual([1, 2, 4]);
    const direct = await call(sb, "GET", `${REPO}/collaborators?affiliation=direct`);
    expect(
      direct.body.map((user: { login: string; role_name: string }) => [user.login, user.role_name]),
    ).toEqual([
      ["octo-reader", "triage"],
      ["octo-dev", "write"],
      ["mona", "triage"],
    ]);
  });

  it("lists a collaborator's highest role, from any grant", async () => {
    const sb = await sandbox();
    // octo-dev maintains platform, which has push; a direct read grant does not lower that.
    await call(sb, "PUT", `${REPO}/collaborators/octo-dev`, { body: { permission: "pull" } });
    const direct = await call(sb, "GET", `${REPO}/collaborators?affiliation=direct`);
    const dev = direct.body.find((user: { login: string }) => user.login === "octo-dev");
    expect(dev).toMatchObject({ role_name: "write", permissions: { push: true, maintain: false } });
    // The owner is no direct collaborator, but has admin.
    const all = await call(sb, "GET", `${REPO}/collaborators`);
    expect(all.body.find((user: { login: string }) => user.login === "octo-admin")).toMatchObject({
      role_name: "admin",
    });
  });

  it("refuses a role it does not know, and one below the base permission for a member", async () => {
    const sb = await sandbox();
    const unknown = await call(sb, "PUT", `${REPO}/collaborators/mona`, {
      body: { permission: "reviewer" },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe("Validation Failed");
    const custom = await call(sb, "PUT", `${REPO}/collaborators/mona`, {
      body: { permission: "Auditor" },
    });
    expect(custom.status).toBe(204);
    const seed = join(configFile(""), "..", "world.yaml");
    writeFileSync(
      seed,
      `users: [{ login: alice, id: 1, token: t }, { login: bob, id: 2 }]
organizations: [{ login: tiny, id: 50, owners: [alice], members: [bob], base_permission: push }]
repositories: [{ full_name: tiny/service, branches: [{ name: main }] }]
`,
    );
    const tiny = await sandbox({ seed });
    const below = await call(tiny, "PUT", "/repos/tiny/service/collaborators/bob", {
      token: "t",
      body: { permission: "pull" },
    });
    expect(below.status).toBe(422);
    expect(below.body.errors[0].message).toBe("Cannot assign bob permission of pull");
  });

  it("changes an invitation's role (PATCH) and lists collaborators only to who may push", async () => {
    const sb = await sandbox();
    const patched = await call(sb, "PATCH", `${REPO}/invitations/1`, {
      body: { permissions: "maintain" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.permissions).toBe("maintain");
    const refused = await call(sb, "PATCH", `${REPO}/invitations/1`, {
      body: { permissions: "owner" },
    });
    expect(refused.status).toBe(422);
    expect((await call(sb, "GET", `${REPO}/collaborators`, { token: READER })).status).toBe(403);
    expect((await call(sb, "GET", `${REPO}/collaborators`, { token: DEV })).status).toBe(200);
  });
});

describe("teams of a repository and of an organization", () => {
  it("lists the security manager team on every repository, and refuses to remove it", async () => {
    const sb = await sandbox();
    const teams = await call(sb, "GET", "/repos/acme/web/teams");
    expect(
      teams.body.map((team: { slug: string; permission: string; access_source: string }) => [
        team.slug,
        team.permission,
        team.access_source,
      ]),
    ).toEqual([
      ["platform", "push", "direct"],
      ["security", "pull", "organization"],
    ]);
    const removal = await call(sb, "DELETE", "/orgs/acme/teams/security/repos/acme/web");
    expect(removal.status).toBe(403);
    expect(removal.body.message).toBe(
      "You cannot remove repositories from a security manager team.",
    );
    const roles = await call(sb, "GET", "/orgs/acme/organization-roles");
    const manager = roles.body.roles.find(
      (role: { name: string }) => role.name === "security_manager",
    );
    const assigned = await call(sb, "GET", `/orgs/acme/organization-roles/${manager.id}/teams`);
    expect(assigned.body.map((team: { slug: string }) => team.slug)).toEqual(["security"]);
  });

  it("lists a team's repositories with its ancestors', each with the highest role, and no security manager's read", async () => {
    const sb = await sandbox();
    const listed = async (slug: string) => {
      const answer = await call(sb, "GET", `/orgs/acme/teams/${slug}/repos`);
      expect(answer.status).toBe(200);
      expect(
        check(responseSchema("/orgs/{org}/teams/{team_slug}/repos", "get"), answer.body),
      ).toEqual([]);
      return (answer.body as Array<{ full_name: string; role_name: string }>).map((repo) => [
        repo.full_name,
        repo.role_name,
      ]);
    };
    const platform = await listed("platform");
    expect(platform).toContainEqual(["acme/web", "write"]);
    // release-managers is a child of platform: its own maintain on acme/api, platform's write on web.
    const release = await listed("release-managers");
    expect(release).toContainEqual(["acme/api", "maintain"]);
    expect(release).toContainEqual(["acme/web", "write"]);
    expect(release.length).toBe(platform.length);
    expect(await listed("security")).toEqual([]);
  });

  it("creates a team with its creator as maintainer, nests it, and keeps nested teams closed", async () => {
    const sb = await sandbox();
    const created = await call(sb, "POST", "/orgs/acme/teams", {
      body: { name: "QA Team", parent_team_slug: "platform" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      slug: "qa-team",
      privacy: "closed",
      parent: { slug: "platform" },
    });
    const maintainers = await call(sb, "GET", "/orgs/acme/teams/qa-team/members?role=maintainer");
    expect(maintainers.body.map((user: { login: string }) => user.login)).toEqual(["octo-admin"]);
    const taken = await call(sb, "POST", "/orgs/acme/teams", { body: { name: "qa team" } });
    expect(taken.status).toBe(422);
    const secret = await call(sb, "PATCH", "/orgs/acme/teams/qa-team", {
      body: { privacy: "secret" },
    });
    expect(secret.status).toBe(422);
    const cycle = await call(sb, "PATCH", "/orgs/acme/teams/platform", {
      body: { parent_team_slug: "qa-team" },
    });
    expect(cycle.status).toBe(422);
    const renamed = await call(sb, "PATCH", "/orgs/acme/teams/qa-team", {
      body: { name: "Quality", parent_team_id: null },
    });
    expect(renamed.body).toMatchObject({ slug: "quality", parent: null });
  });

  it("lists child teams' members as inherited, and owners as maintainers", async () => {
    const sb = await sandbox();
    // release-managers (maintained by the owner, octo-admin) is nested under platform.
    const members = await call(sb, "GET", "/orgs/acme/teams/platform/members");
    expect(
      members.body.map((user: { login: string; role: string; inherited: boolean }) => [
        user.login,
        user.role,
        user.inherited,
      ]),
    ).toEqual([
      ["octo-admin", "maintainer", true],
      ["octo-dev", "maintainer", false],
    ]);
    await call(sb, "PUT", "/orgs/acme/teams/security/memberships/octo-admin", {
      body: { role: "member" },
    });
    const owner = await call(sb, "GET", "/orgs/acme/teams/security/memberships/octo-admin");
    expect(owner.body).toMatchObject({ role: "maintainer", state: "active" });
  });

  it("invites people outside the organization with a pending membership", async () => {
    const sb = await sandbox();
    const pending = await call(sb, "PUT", "/orgs/acme/teams/platform/memberships/hubot", {
      body: { role: "member" },
    });
    expect(pending.body).toMatchObject({ role: "member", state: "pending" });
    const members = await call(sb, "GET", "/orgs/acme/teams/platform/members");
    expect(members.body.map((user: { login: string }) => user.login)).not.toContain("hubot");
    const byDev = await call(sb, "PUT", "/orgs/acme/teams/platform/memberships/mona", {
      token: DEV,
      body: { role: "member" },
    });
    expect(byDev.status).toBe(403);
    expect((await call(sb, "DELETE", "/orgs/acme/teams/platform/memberships/hubot")).status).toBe(
      204,
    );
    expect((await call(sb, "GET", "/orgs/acme/teams/platform/memberships/hubot")).status).toBe(404);
  });

  it("deletes a parent team with its child teams and their grants", async () => {
    const sb = await sandbox();
    expect((await call(sb, "DELETE", "/orgs/acme/teams/platform")).status).toBe(204);
    expect((await call(sb, "GET", "/orgs/acme/teams/release-managers")).status).toBe(404);
    const teams = await call(sb, "GET", `${REPO}/teams`);
    expect(teams.body.map((team: { slug: string }) => team.slug)).toEqual(["security"]);
  });

  it("answers custom repository roles in GitHub Enterprise Cloud's shape", async () => {
    const sb = await sandbox();
    const roles = await call(sb, "GET", "/orgs/acme/custom-repository-roles");
    expect(roles.body).toMatchObject({
      total_count: 1,
      custom_roles: [{ name: "auditor", base_role: "read" }],
    });
    const schema = responseSchema("/orgs/{org}/custom-repository-roles", "get", "200", enterprise);
    expect(check(schema, roles.body, enterpriseSchemas)).toEqual([]);
    expect(
      (await call(sb, "GET", "/orgs/acme/custom-repository-roles", { token: READER })).status,
    ).toBe(404);
  });
});
