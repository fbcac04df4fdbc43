import { describe, expect, it } from "vitest";
import { call, READER, sandbox } from "./helpers.js";

function links(header: string | null): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of (header ?? "").split(", ").filter(Boolean)) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    if (match?.[1] && match[2]) result[match[2]] = match[1];
  }
  return result;
}

/** The organization acme's id, which GitHub's Link URLs use instead of its name. */
async function acmeId(sb: Awaited<ReturnType<typeof sandbox>>): Promise<number> {
  return (await call(sb, "GET", "/repos/acme/api")).body.owner.id;
}

describe("pagination", () => {
  it("defaults to 30 per page with next/last links on absolute URLs", async () => {
    const sb = await sandbox({ generate: 250 });
    const { body, headers } = await call(sb, "GET", "/orgs/acme/repos");
    expect(body).toHaveLength(30);
    expect(body[0].full_name).toBe("acme/api");
    expect(body[3].full_name).toBe("acme/repo-0001");
    const org = `${sb.url}/organizations/${await acmeId(sb)}/repos`;
    expect(links(headers.get("link"))).toEqual({
      next: `${org}?page=2`,
      last: `${org}?page=9`,
    });
  });

  it("keeps other query parameters and adds prev/first after the first page", async () => {
    const sb = await sandbox({ generate: 250 });
    const { body, headers } = await call(sb, "GET", "/orgs/acme/repos?type=all&per_page=50&page=3");
    expect(body[0].full_name).toBe("acme/repo-0098");
    const org = `${sb.url}/organizations/${await acmeId(sb)}/repos`;
    expect(links(headers.get("link"))).toEqual({
      prev: `${org}?type=all&per_page=50&page=2`,
      next: `${org}?type=all&per_page=50&page=4`,
      last: `${org}?type=all&per_page=50&page=6`,
      first: `${org}?type=all&per_page=50&page=1`,
    });
  });

  it("clamps per_page to 100 and serves the last page and beyond", async () => {
    const sb = await sandbox({ generate: 250 });
    const clamped = await call(sb, "GET", "/orgs/acme/repos?per_page=1000");
    expect(clamped.body).toHaveLength(100);
    expect(links(clamped.headers.get("link")).last).toContain("page=3");
    const last = await call(sb, "GET", "/orgs/acme/repos?per_page=100&page=3");
    expect(last.body).toHaveLength(53);
    expect(Object.keys(links(last.headers.get("link")))).toEqual(["prev", "first"]);
    const beyond = await call(sb, "GET", "/orgs/acme/repos?per_page=100&page=9");
    expect(beyond.body).toEqual([]);
    expect(links(beyond.headers.get("link")).prev).toContain("page=3");
  });

  it("sends no Link header when everything fits on one page", async () => {
    const sb = await sandbox();
    const { headers } = await call(sb, "GET", "/repos/acme/api/invitations");
    expect(headers.get("link")).toBeNull();
  });

  it("paginates every list the spec names", async () => {
    const sb = await sandbox();
    const repo = `/repositories/${(await call(sb, "GET", "/repos/acme/api")).body.id}`;
    const lists = [
      ["/repos/acme/api/invitations", `${repo}/invitations`],
      ["/gists", "/gists"],
      ["/user/migrations/1/repositories", "/user/migrations/1/repositories"],
      ["/repos/acme/api/hooks", `${repo}/hooks`],
      ["/repos/acme/api/branches", `${repo}/branches`],
      ["/api/v4/projects/1/boards", "/api/v4/projects/1/boards"],
    ];
    for (const [path, linked] of lists) {
      const { body, headers } = await call(sb, "GET", `${path}?per_page=1`);
      expect(body).toHaveLength(1);
      expect(links(headers.get("link")).next).toBe(`${sb.url}${linked}?per_page=1&page=2`);
    }
  });

  it("serves the id paths its Link URLs use, as GitHub does, and hides what the caller cannot see", async () => {
    const sb = await sandbox({ generate: 3 });
    const repo = (await call(sb, "GET", "/repos/acme/api")).body;
    const byName = await call(sb, "GET", "/repos/acme/api/branches?per_page=1&page=2");
    const byId = await call(sb, "GET", `/repositories/${repo.id}/branches?per_page=1&page=2`);
    expect([byId.status, byId.body]).toEqual([200, byName.body]);
    expect((await call(sb, "GET", `/repositories/${repo.id}`)).body.full_name).toBe("acme/api");
    const orgPage = await call(
      sb,
      "GET",
      `/organizations/${repo.owner.id}/repos?per_page=2&page=2`,
    );
    expect(orgPage.body.map((item: { name: string }) => item.name)).toEqual([
      "legacy",
      "repo-0001",
    ]);
    const user = (await call(sb, "GET", "/user")).body;
    const own = await call(sb, "GET", `/user/${user.id}/repos`);
    expect(own.body.map((item: { full_name: string }) => item.full_name)).toEqual([
      "octo-admin/dotfiles",
    ]);
    expect((await call(sb, "GET", "/repositories/999999/branches")).status).toBe(404);
    const hidden = await call(sb, "GET", `/repositories/${repo.id}`, { token: null });
    expect([repo.private, hidden.status]).toEqual([true, 404]);
    const edited = await call(sb, "PATCH", `/repositories/${repo.id}/hooks/2`, {
      body: { active: false },
    });
    expect([edited.status, edited.body.active]).toEqual([200, false]);
  });
});

describe("generated repositories", () => {
  it("adds acme/repo-NNNN with branches main and dev and two webhooks, admin for octo-admin", async () => {
    const sb = await sandbox({ generate: 12 });
    const branches = await call(sb, "GET", "/repos/acme/repo-0012/branches");
    expect(branches.body.map((b: { name: string }) => b.name)).toEqual(["dev", "main"]);
    const hooks = await call(sb, "GET", "/repos/ACME/REPO-0012/hooks");
    expect(hooks.body.map((h: { url: string; events: string[] }) => [h.url, h.events])).toEqual([
      ["https://ci.acme.example/hooks/forge", ["push"]],
      ["https://chat.acme.example/notify", ["issues"]],
    ]);
    expect((await call(sb, "GET", "/repos/acme/repo-0013")).status).toBe(404);
    const reader = await call(sb, "GET", "/repos/acme/repo-0001/hooks", { token: READER });
    expect(reader.status).toBe(403);
  });

  it("widens the number when more than 9999 repositories are asked for", async () => {
    const sb = await sandbox({ generate: 10_000 });
    expect((await call(sb, "GET", "/repos/acme/repo-10000")).status).toBe(200);
    expect((await call(sb, "GET", "/repos/acme/repo-00001/branches/main")).status).toBe(200);
  });
});
