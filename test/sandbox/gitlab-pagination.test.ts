import { describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { ForgeClient } from "../../src/forge/client.js";
import { systemClock } from "../../src/forge/clock.js";
import { ADMIN, call, sandbox } from "./helpers.js";

/**
 * GitLab's offset and keyset pagination (docs, "REST API", "Pagination"), and the per-endpoint
 * limits of GitLab.com ("GitLab.com rate limits") when the sandbox is started with them.
 */

const ids = (body: Array<{ id: number }>) => body.map((item) => item.id);
const rels = (link: string | null) =>
  [...(link ?? "").matchAll(/<([^>]*)>; rel="(\w+)"/g)].map((match) => [
    match[2],
    new URL(match[1] ?? "").search,
  ]);

describe("GitLab's offset pagination", () => {
  it("pages 20 by default with x-page, x-per-page, x-next-page, x-prev-page, x-total, x-total-pages and Link", async () => {
    const sb = await sandbox({ generateProjects: 45 });
    const first = await call(sb, "GET", "/api/v4/groups/acme/projects?order_by=id&sort=asc");
    expect(first.body).toHaveLength(20);
    expect(first.body[0].path_with_namespace).toBe("acme/api");
    const middle = await call(
      sb,
      "GET",
      "/api/v4/groups/acme/projects?order_by=id&sort=asc&page=2",
    );
    const header = (name: string) => middle.headers.get(name);
    expect(
      ["x-page", "x-per-page", "x-next-page", "x-prev-page", "x-total", "x-total-pages"].map(
        header,
      ),
    ).toEqual(["2", "20", "3", "1", "47", "3"]);
    expect(rels(header("link"))).toEqual([
      ["prev", "?order_by=id&sort=asc&page=1&per_page=20"],
      ["next", "?order_by=id&sort=asc&page=3&per_page=20"],
      ["first", "?order_by=id&sort=asc&page=1&per_page=20"],
      ["last", "?order_by=id&sort=asc&page=3&per_page=20"],
    ]);
    const last = await call(sb, "GET", "/api/v4/groups/acme/projects?page=3&per_page=20");
    expect(last.body).toHaveLength(7);
    expect(last.headers.get("x-next-page")).toBe("");
    expect(rels(last.headers.get("link")).map(([rel]) => rel)).toEqual(["prev", "first", "last"]);
    const capped = await call(sb, "GET", "/api/v4/groups/acme/projects?per_page=500");
    expect([capped.body.length, capped.headers.get("x-per-page")]).toEqual([47, "100"]);
  });

  it("omits x-total, x-total-pages and rel=last past 10,000 records, and forgeplan's client still reads every page by rel=next", async () => {
    const sb = await sandbox({ generateProjects: 10_050 });
    const page = await call(sb, "GET", "/api/v4/projects?per_page=100&page=2");
    expect(page.body).toHaveLength(100);
    expect(page.headers.get("x-total")).toBeNull();
    expect(page.headers.get("x-total-pages")).toBeNull();
    expect(page.headers.get("x-next-page")).toBe("3");
    expect(rels(page.headers.get("link")).map(([rel]) => rel)).toEqual(["prev", "next", "first"]);
    const client = new ForgeClient({
      baseUrl: sb.url,
      kind: "planning",
      token: new Secret(ADMIN, "GITLAB_TOKEN"),
      clock: systemClock,
      writeIntervalMs: 0,
      maxPages: 1000,
    });
    const all = await client.paginate<{ id: number }>("/api/v4/groups/acme/projects", {
      order_by: "id",
      sort: "asc",
    });
    expect(all).toHaveLength(10_052);
    expect(new Set(all.map((item) => item.id)).size).toBe(10_052);
  });

  it("refuses an offset past 50,000 on /projects with GitLab's 405 pointing to keyset pagination", async () => {
    const sb = await sandbox();
    const over = await call(sb, "GET", "/api/v4/projects?page=501&per_page=100");
    expect([over.status, over.body]).toEqual([
      405,
      {
        error:
          "Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination.",
      },
    ]);
    expect((await call(sb, "GET", "/api/v4/projects?page=500&per_page=100")).status).toBe(200);
    // A group's projects offer no keyset pagination, so no ceiling either.
    expect((await call(sb, "GET", "/api/v4/groups/1/projects?page=501&per_page=100")).status).toBe(
      200,
    );
  });
});

describe("GitLab's keyset pagination", () => {
  it("follows rel=next with id_after to the end, with no other pagination headers", async () => {
    const sb = await sandbox({ generateProjects: 3 });
    let path: string | undefined =
      "/api/v4/projects?pagination=keyset&order_by=id&sort=asc&per_page=2";
    const seen: number[] = [];
    const links: string[] = [];
    while (path !== undefined) {
      const page = await call(sb, "GET", path);
      expect(page.status).toBe(200);
      expect(page.headers.get("x-total")).toBeNull();
      expect(page.headers.get("x-page")).toBeNull();
      seen.push(...ids(page.body));
      const next = rels(page.headers.get("link"));
      expect(next.every(([rel]) => rel === "next")).toBe(true);
      links.push(...next.map(([, search]) => search ?? ""));
      path = next[0] ? `/api/v4/projects${next[0][1]}` : undefined;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    expect(links[0]).toContain("id_after=2");
    const desc = await call(
      sb,
      "GET",
      "/api/v4/projects?pagination=keyset&order_by=id&sort=desc&per_page=4",
    );
    expect(ids(desc.body)).toEqual([6, 5, 4, 3]);
    expect(rels(desc.headers.get("link"))[0]?.[1]).toContain("id_before=3");
    const refused = await call(sb, "GET", "/api/v4/projects?pagination=keyset&order_by=name");
    expect([refused.status, refused.body]).toEqual([
      405,
      { error: "Keyset pagination is not yet available for this type of request" },
    ]);
  });
});

describe("GitLab's rate-limit headers and GitLab.com's per-endpoint limits", () => {
  it("sends RateLimit-* with RateLimit-ResetTime on every answer", async () => {
    const now = Date.parse("2026-06-01T12:00:00Z");
    const sb = await sandbox({ now: () => now, rateWindowSeconds: 60 });
    const { headers } = await call(sb, "GET", "/api/v4/projects/1");
    expect(headers.get("ratelimit-limit")).toBe("5000");
    expect(headers.get("ratelimit-observed")).toBe("1");
    expect(headers.get("ratelimit-remaining")).toBe("4999");
    expect(headers.get("ratelimit-reset")).toBe(String(now / 1000 + 60));
    expect(headers.get("ratelimit-resettime")).toBe("Mon, 01 Jun 2026 12:01:00 GMT");
  });

  it("throttles GET /projects/:id at 400 a minute per user, with a 429 that carries no rate-limit headers", async () => {
    let now = Date.parse("2026-06-01T12:00:00Z");
    const sb = await sandbox({ now: () => now, gitlabComLimits: true });
    for (let i = 0; i < 400; i++) {
      const answer = await call(sb, "GET", "/api/v4/projects/1");
      if (answer.status !== 200) throw new Error(`request ${i + 1}: ${answer.status}`);
    }
    const over = await call(sb, "GET", "/api/v4/projects/acme%2Fweb");
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      message: { error: "This endpoint has been requested too many times. Try again later." },
    });
    expect(over.headers.get("retry-after")).toBe("60");
    expect([...over.headers.keys()].filter((name) => name.includes("ratelimit"))).toEqual([]);
    // Another endpoint, and another user, are not throttled.
    expect((await call(sb, "GET", "/api/v4/projects/1/boards")).status).toBe(200);
    expect((await call(sb, "GET", "/api/v4/projects/1", { token: "sandbox-dev" })).status).toBe(
      200,
    );
    now += 60_000;
    expect((await call(sb, "GET", "/api/v4/projects/1")).status).toBe(200);
  });

  it("throttles a project's members list at 200 a minute for each project and user", async () => {
    const sb = await sandbox({ gitlabComLimits: true });
    for (let i = 0; i < 200; i++) {
      const answer = await call(sb, "GET", "/api/v4/projects/3/members/all");
      if (answer.status !== 200) throw new Error(`request ${i + 1}: ${answer.status}`);
    }
    expect((await call(sb, "GET", "/api/v4/projects/3/members/all")).status).toBe(429);
    expect((await call(sb, "GET", "/api/v4/projects/1/members/all")).status).toBe(200);
  });

  it("counts 2,000 requests a minute per user over every endpoint, GraphQL's too, answered as Rack::Attack does", async () => {
    let now = Date.parse("2026-06-01T12:00:00Z");
    const sb = await sandbox({ now: () => now, gitlabComLimits: true });
    // Over 900 a minute on one endpoint, GitHub's secondary points, which GitLab does not have.
    for (let i = 0; i < 1_500; i++) {
      const answer = await call(sb, "GET", `/api/v4/projects/${1 + (i % 3)}/boards`);
      if (answer.status !== 200) throw new Error(`request ${i + 1}: ${answer.status}`);
    }
    for (let i = 0; i < 500; i++) {
      const answer = await call(sb, "POST", "/api/graphql", { body: { query: "{ __typename }" } });
      if (answer.status !== 200) throw new Error(`query ${i + 1}: ${answer.status}`);
      // Every answer reports the user's minute, as GitLab.com's do.
      if (i === 499) {
        expect(answer.headers.get("ratelimit-name")).toBe("throttle_authenticated_api");
        expect(answer.headers.get("ratelimit-limit")).toBe("2000");
        expect(answer.headers.get("ratelimit-observed")).toBe("2000");
        expect(answer.headers.get("ratelimit-remaining")).toBe("0");
        expect(answer.headers.get("ratelimit-reset")).toBe(String(now / 1000 + 60));
        expect(answer.headers.get("x-ratelimit-remaining")).toBe("0");
      }
    }
    now += 30_000;
    // Rack::Attack's body is plain text, not JSON: read as it is.
    const over = await fetch(`${sb.url}/api/v4/projects/1/boards`, {
      headers: { Authorization: `Bearer ${ADMIN}` },
    });
    expect(over.status).toBe(429);
    expect(await over.text()).toBe("Retry later\n");
    expect(over.headers.get("retry-after")).toBe("30");
    expect(over.headers.get("ratelimit-name")).toBe("throttle_authenticated_api");
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    expect((await call(sb, "GET", "/api/v4/projects/1", { token: "sandbox-dev" })).status).toBe(
      200,
    );
    now += 30_000;
    expect((await call(sb, "GET", "/api/v4/projects/1/boards")).status).toBe(200);
  });

  it("enforces none of them by default", async () => {
    const sb = await sandbox({ rateLimits: { core: 1000 } });
    for (let i = 0; i < 401; i++) {
      const answer = await call(sb, "GET", "/api/v4/projects/1");
      if (answer.status !== 200) throw new Error(`request ${i + 1}: ${answer.status}`);
    }
  });
});
