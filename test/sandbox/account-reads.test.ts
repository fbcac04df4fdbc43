import { describe, expect, it } from "vitest";
import { call, DEV, READER, sandbox } from "./helpers.js";

const SMALL = "test/sandbox/fixtures/small-world.yaml";

describe("GET repository invitations", () => {
  it("lists the three open invitations of acme/api for an admin", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "GET", "/repos/acme/api/invitations");
    expect(status).toBe(200);
    expect(
      body.map((item: { id: number; invitee: { login: string }; permissions: string }) => [
        item.id,
        item.invitee.login,
        item.permissions,
      ]),
    ).toEqual([
      [1, "hubot", "write"],
      [2, "octo-dev", "read"],
      [3, "outside-contractor", "admin"],
    ]);
    expect(body[0]).toMatchObject({
      created_at: "2026-01-05T10:00:00Z",
      expired: false,
      inviter: { login: "octo-admin" },
      repository: { full_name: "acme/api" },
    });
    expect(body[2].expired).toBe(true);
  });

  it("is admin only", async () => {
    const sb = await sandbox();
    expect((await call(sb, "GET", "/repos/acme/api/invitations", { token: DEV })).status).toBe(403);
    expect((await call(sb, "GET", "/repos/acme/api/invitations", { token: null })).status).toBe(
      404,
    );
    const publicRepo = "/repos/octo-admin/dotfiles/invitations";
    expect((await call(sb, "GET", publicRepo, { token: null })).status).toBe(401);
  });

  it("revokes an invitation (204); an unknown one is 404", async () => {
    const sb = await sandbox();
    expect((await call(sb, "DELETE", "/repos/acme/api/invitations/3")).status).toBe(204);
    expect((await call(sb, "DELETE", "/repos/acme/api/invitations/3")).status).toBe(404);
    const { body } = await call(sb, "GET", "/repos/acme/api/invitations");
    expect(body.map((item: { id: number }) => item.id)).toEqual([1, 2]);
    expect(
      (await call(sb, "DELETE", "/repos/acme/api/invitations/1", { token: READER })).status,
    ).toBe(403);
  });
});

describe("GET /gists", () => {
  const ids = (body: { id: string }[]) => body.map((item) => item.id);

  it("lists the caller's own gists, secret ones included, newest first", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", "/gists");
    expect(ids(body)).toEqual([
      "c3d4e5f60718293a4b5c",
      "b2c3d4e5f60718293a4b",
      "a1b2c3d4e5f60718293a",
    ]);
    expect(body.map((item: { public: boolean }) => item.public)).toEqual([false, false, true]);
    expect(body[0].owner.login).toBe("octo-admin");
    expect(body[0].files["deploy.sh"]).toMatchObject({ filename: "deploy.sh", language: "Shell" });
    const dev = await call(sb, "GET", "/gists", { token: DEV });
    expect(dev.body).toHaveLength(2);
  });

  it("lists all public gists for an anonymous caller", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "GET", "/gists", { token: null });
    expect(status).toBe(200);
    expect(body).toHaveLength(4);
    expect(body.every((item: { public: boolean }) => item.public)).toBe(true);
  });

  it("filters by since and refuses a malformed since with 422", async () => {
    const sb = await sandbox();
    const recent = await call(sb, "GET", "/gists?since=2026-03-01T00:00:00Z");
    expect(ids(recent.body)).toEqual(["c3d4e5f60718293a4b5c", "b2c3d4e5f60718293a4b"]);
    const bad = await call(sb, "GET", "/gists?since=last-tuesday");
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe("Validation Failed");
    expect(bad.body.errors[0]).toContain("ISO 8601");
  });

  it("answers a matching If-None-Match with 304 and no body", async () => {
    const sb = await sandbox();
    const first = await call(sb, "GET", "/gists");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\/"[0-9a-f]{64}"$/);
    const again = await call(sb, "GET", "/gists", { headers: { "If-None-Match": etag ?? "" } });
    expect([again.status, again.text]).toEqual([304, ""]);
    expect(again.headers.get("etag")).toBe(etag);
  });
});

describe("migrations", () => {
  it("lists a user migration's repositories for its owner only", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "GET", "/user/migrations/1/repositories");
    expect(status).toBe(200);
    expect(body.map((repo: { full_name: string }) => repo.full_name)).toEqual([
      "octo-admin/dotfiles",
      "acme/web",
    ]);
    const other = await call(sb, "GET", "/user/migrations/1/repositories", { token: DEV });
    expect([other.status, other.body.message]).toEqual([404, "Not Found"]);
    expect((await call(sb, "GET", "/user/migrations/77/repositories")).status).toBe(404);
    expect((await call(sb, "GET", "/user/migrations/1/repositories", { token: null })).status).toBe(
      401,
    );
    const one = await call(sb, "GET", "/user/migrations/1");
    expect(one.body).toMatchObject({ id: 1, state: "exported", lock_repositories: false });
  });

  it("reads an organization migration, omitting repositories on exclude=repositories", async () => {
    const sb = await sandbox();
    const full = await call(sb, "GET", "/orgs/ACME/migrations/2");
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({
      id: 2,
      state: "exported",
      lock_repositories: false,
      url: `${sb.url}/orgs/acme/migrations/2`,
      archive_url: `${sb.url}/orgs/acme/migrations/2/archive`,
    });
    expect(full.body.repositories.map((repo: { full_name: string }) => repo.full_name)).toEqual([
      "acme/api",
      "acme/web",
    ]);
    for (const query of ["exclude=repositories", "exclude[]=repositories"]) {
      const slim = await call(sb, "GET", `/orgs/acme/migrations/2?${query}`);
      expect(slim.body.repositories).toBeUndefined();
      expect(slim.body.id).toBe(2);
    }
    expect((await call(sb, "GET", "/orgs/acme/migrations/2", { token: READER })).status).toBe(404);
    expect((await call(sb, "GET", "/orgs/acme/migrations/1")).status).toBe(404);
    expect((await call(sb, "GET", "/orgs/nope/migrations/2")).status).toBe(404);
  });

  it("reports pending, exporting and failed migrations from a seed", async () => {
    const sb = await sandbox({ seed: SMALL });
    const exporting = await call(sb, "GET", "/orgs/tiny/migrations/10", { token: "alice-token" });
    expect(exporting.body).toMatchObject({ state: "exporting", lock_repositories: true });
    expect(exporting.body.archive_url).toBeUndefined();
    const failed = await call(sb, "GET", "/orgs/tiny/migrations/12", { token: "alice-token" });
    expect(failed.body.state).toBe("failed");
    const pending = await call(sb, "GET", "/user/migrations/11", { token: "alice-token" });
    expect(pending.body).toMatchObject({ state: "pending", lock_repositories: true });
  });
});

describe("repository reads a planner needs", () => {
  it("reads a repository with the caller's permissions and merge settings", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", "/repos/acme/web", { token: DEV });
    expect(body).toMatchObject({
      full_name: "acme/web",
      owner: { login: "acme", type: "Organization" },
      default_branch: "main",
      allow_squash_merge: true,
      allow_rebase_merge: false,
      permissions: { admin: false, push: true, pull: true },
    });
    const dotfiles = await call(sb, "GET", "/repos/octo-admin/dotfiles", { token: null });
    expect(dotfiles.body.owner.type).toBe("User");
    expect((await call(sb, "GET", "/repos/acme/api", { token: null })).status).toBe(404);
  });

  it("lists branches and reads one", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", "/repos/acme/api/branches", { token: READER });
    expect(body.map((b: { name: string; protected: boolean }) => [b.name, b.protected])).toEqual([
      ["main", true],
      ["release", false],
    ]);
    const one = await call(sb, "GET", "/repos/acme/api/branches/release");
    expect(one.body.commit.sha).toMatch(/^[0-9a-f]{40}$/);
    expect((await call(sb, "GET", "/repos/acme/api/branches/none")).status).toBe(404);
  });

  it("lists an organization's and a user's repositories, as visible to the caller", async () => {
    const sb = await sandbox();
    const org = await call(sb, "GET", "/orgs/acme/repos", { token: READER });
    expect(org.body.map((repo: { name: string }) => repo.name)).toEqual(["api", "web", "legacy"]);
    const anonymous = await call(sb, "GET", "/orgs/acme/repos", { token: null });
    expect(anonymous.body).toEqual([]);
    const user = await call(sb, "GET", "/users/octo-admin/repos", { token: null });
    expect(user.body.map((repo: { full_name: string }) => repo.full_name)).toEqual([
      "octo-admin/dotfiles",
    ]);
    expect((await call(sb, "GET", "/orgs/nope/repos")).status).toBe(404);
  });

  it("tells who the caller is", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", "/user", { token: READER });
    expect(body).toMatchObject({ login: "octo-reader", id: 2, name: "Octo Reader" });
    expect((await call(sb, "GET", "/user", { token: null })).status).toBe(401);
  });
});
