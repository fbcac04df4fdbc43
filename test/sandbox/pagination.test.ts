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

describe("pagination", () => {
  it("defaults to 30 per page with next/last links on absolute URLs", async () => {
    const sb = await sandbox({ generate: 250 });
    const { body, headers } = await call(sb, "GET", "/orgs/acme/repos");
    expect(body).toHaveLength(30);
    expect(body[0].full_name).toBe("acme/api");
    expect(body[2].full_name).toBe("acme/repo-0001");
    expect(links(headers.get("link"))).toEqual({
      next: `${sb.url}/orgs/acme/repos?page=2`,
      last: `${sb.url}/orgs/acme/repos?page=9`,
    });
  });

  it("keeps other query parameters and adds prev/first after the first page", async () => {
    const sb = await sandbox({ generate: 250 });
    const { body, headers } = await call(sb, "GET", "/orgs/acme/repos?type=all&per_page=50&page=3");
    expect(body[0].full_name).toBe("acme/repo-0099");
    expect(links(headers.get("link"))).toEqual({
      prev: `${sb.url}/orgs/acme/repos?type=all&per_page=50&page=2`,
      next: `${sb.url}/orgs/acme/repos?type=all&per_page=50&page=4`,
      last: `${sb.url}/orgs/acme/repos?type=all&per_page=50&page=6`,
      first: `${sb.url}/orgs/acme/repos?type=all&per_page=50&page=1`,
    });
  });

  it("clamps per_page to 100 and serves the last page and beyond", async () => {
    const sb = await sandbox({ generate: 250 });
    const clamped = await call(sb, "GET", "/orgs/acme/repos?per_page=1000");
    expect(clamped.body).toHaveLength(100);
    expect(links(clamped.headers.get("link")).last).toContain("page=3");
    const last = await call(sb, "GET", "/orgs/acme/repos?per_page=100&page=3");
    expect(last.body).toHaveLength(52);
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
    const lists = [
      "/repos/acme/api/invitations",
      "/gists",
      "/user/migrations/1/repositories",
      "/repos/acme/api/hooks",
      "/repos/acme/api/branches",
      "/api/v4/projects/1/boards",
    ];
    for (const path of lists) {
      const { body, headers } = await call(sb, "GET", `${path}?per_page=1`);
      expect(body).toHaveLength(1);
      expect(links(headers.get("link")).next).toBe(`${sb.url}${path}?per_page=1&page=2`);
    }
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
