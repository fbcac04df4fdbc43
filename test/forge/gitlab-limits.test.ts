import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { budgetLine, leastTime, type ReadBudget } from "../../src/core/budget.js";
import { Secret } from "../../src/core/secret.js";
import { type ClientEvent, ForgeClient, MemoryCache } from "../../src/forge/client.js";
import { endpointGroupOf, endpointLimitOf, gitlabLimitsOf } from "../../src/forge/gitlab-limits.js";
import { GitlabWindows } from "../../src/forge/gitlab-windows.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { call, sandbox } from "../helpers/sandbox.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService, type Handler } from "./fake-service.js";

/** GitLab.com's limits in the client: which requests they hold, the windows, paging, the cache. */

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

let world: RunningSandbox;
beforeAll(async () => {
  world = await sandbox({ generateProjects: 230 });
});
afterAll(() => world.stop());

function planningClient(
  baseUrl: string,
  options: Partial<ConstructorParameters<typeof ForgeClient>[0]> = {},
) {
  return new ForgeClient({
    baseUrl,
    kind: "planning",
    token: new Secret("sandbox-admin", "T"),
    writeIntervalMs: 0,
    ...options,
  });
}

describe("which of GitLab.com's limits a request counts in", () => {
  it("matches each documented endpoint, a project or group by id or by encoded path", () => {
    expect(endpointGroupOf("GET", "/api/v4/projects/42")).toBe("GET /api/v4/projects/:id");
    expect(endpointGroupOf("GET", "/api/v4/projects/acme%2Fweb?license=true")).toBe(
      "GET /api/v4/projects/:id",
    );
    expect(endpointGroupOf("GET", "/api/v4/projects")).toBe("GET /api/v4/projects");
    expect(endpointGroupOf("GET", "/api/v4/groups/acme/projects?page=2")).toBe(
      "GET /api/v4/groups/:id/projects",
    );
    expect(endpointGroupOf("GET", "/api/v4/groups")).toBe("GET /api/v4/groups");
    expect(endpointGroupOf("GET", "/api/v4/groups/7")).toBe("GET /api/v4/groups/:id");
    // Writes, and reads of other endpoints, count only in the API's 2,000 a minute.
    expect(endpointGroupOf("PUT", "/api/v4/projects/42")).toBe("other");
    expect(endpointGroupOf("GET", "/api/v4/projects/42/labels")).toBe("other");
  });

  it("counts the members lists for each project or group, the two sharing one limit", () => {
    const project = endpointLimitOf("GET", "/api/v4/projects/3/members/all");
    const group = endpointLimitOf("GET", "/api/v4/groups/3/members/all");
    expect(project?.rule).toBe(group?.rule);
    expect(project?.rule.limit).toBe(200);
    expect(project?.key).not.toBe(endpointLimitOf("GET", "/api/v4/projects/4/members/all")?.key);
  });

  it("holds gitlab.com by its host, anything else only when its target says so", () => {
    expect(gitlabLimitsOf("https://gitlab.com")).toBe("gitlab.com");
    expect(gitlabLimitsOf("https://GitLab.com/")).toBe("gitlab.com");
    expect(gitlabLimitsOf("https://gitlab.example.com")).toBe("none");
    expect(gitlabLimitsOf("http://127.0.0.1:8080", "gitlab.com")).toBe("gitlab.com");
    expect(gitlabLimitsOf("https://gitlab.com", "none")).toBe("none");
  });
});

describe("the windows the client paces GitLab.com's limits in", () => {
  it("holds the 401st project read of a minute until the first leaves the window", () => {
    const windows = new GitlabWindows(1, 1000);
    for (let i = 0; i < 400; i++) {
      expect(windows.wait("GET", `/api/v4/projects/${i}`, 1000 + i)).toBeUndefined();
      windows.spend("GET", `/api/v4/projects/${i}`, 1000 + i);
    }
    expect(windows.wait("GET", "/api/v4/projects/1", 2000)).toMatchObject({
      group: "GET /api/v4/projects/:id",
      limit: 400,
      // The first read, at 1000, leaves a 60 s window widened by the 1 s skew at 62 000.
      waitMs: 61_000 - 1000,
    });
    // Another endpoint is not held by it.
    expect(windows.wait("GET", "/api/v4/groups/acme", 2000)).toBeUndefined();
  });

  it("holds every request past the 2,000 a minute of the API, and a shard at its share", () => {
    const half = new GitlabWindows(0.5, 1000);
    for (let i = 0; i < 1000; i++) half.spend("PUT", `/api/v4/projects/${i}/labels`, 5000);
    expect(half.wait("GET", "/api/v4/projects/1/hooks", 5000)).toMatchObject({
      group: "authenticated API",
      waitMs: 61_000,
    });
    const members = new GitlabWindows(0.5, 1000);
    for (let i = 0; i < 100; i++) members.spend("GET", "/api/v4/projects/9/members/all", 0);
    expect(members.wait("GET", "/api/v4/projects/9/members/all", 0)?.limit).toBe(200);
    expect(members.wait("GET", "/api/v4/groups/9/members/all", 0)).toBeUndefined();
  });

  it("paces a gitlab.com client, and a self-managed one not at all", async () => {
    const clock = new FakeClock();
    service = await FakeService.start(() => ({ body: { id: 1 } }), clock);
    for (const [limits, waited] of [
      ["gitlab.com", true],
      ["none", false],
    ] as const) {
      const events: ClientEvent[] = [];
      const client = planningClient(service.url, {
        clock,
        concurrency: 1,
        gitlabLimits: limits,
        onEvent: (event) => events.push(event),
      });
      const started = clock.now();
      for (let i = 0; i < 51; i++) await client.get("/api/v4/groups");
      expect(events.some((event) => event.type === "wait")).toBe(waited);
      expect(clock.now() - started >= 60_000).toBe(waited);
      expect(client.stats().endpointGroups).toEqual({ "GET /api/v4/groups": 51 });
    }
  });
});

describe("a 429 without rate-limit headers", () => {
  it("waits GitLab's minute when it has no Retry-After either, then completes", async () => {
    const clock = new FakeClock();
    let calls = 0;
    const handler: Handler = () =>
      ++calls === 1
        ? { status: 429, body: { message: "This endpoint has been requested too many times." } }
        : { body: { id: 1 } };
    service = await FakeService.start(handler, clock);
    const events: ClientEvent[] = [];
    const client = planningClient(service.url, {
      clock,
      onEvent: (event) => events.push(event),
    });
    expect(await client.get("/api/v4/projects/1")).toEqual({ id: 1 });
    expect(events.find((event) => event.type === "wait")).toMatchObject({
      after: { status: 429, source: "backoff", waitMs: 60_000 },
    });
    expect(service.received[1]!.at - service.received[0]!.at).toBe(60_000);
  });
});

describe("GitLab's listings", () => {
  it("follows keyset pages (GET /projects) by their Link rel=next to the empty end", async () => {
    const pages: string[] = [];
    const client = planningClient(world.url, {
      onEvent: (event) => {
        if (event.type === "request") pages.push(event.path);
      },
    });
    const listed = await client.paginate<{ id: number }>("/api/v4/projects", {
      pagination: "keyset",
      order_by: "id",
      sort: "asc",
      simple: "true",
    });
    const ids = listed.map((project) => project.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(230);
    expect(pages.length).toBe(Math.ceil(ids.length / 100));
    expect(pages.slice(1).every((path) => path.includes("id_after="))).toBe(true);
  });

  it("follows x-next-page where no Link header names the next page, needing no totals", async () => {
    const clock = new FakeClock();
    service = await FakeService.start((request) => {
      const page = Number(new URL(request.path, "http://x").searchParams.get("page") ?? "1");
      return {
        headers: { "x-page": String(page), "x-next-page": page < 3 ? String(page + 1) : "" },
        body: Array.from({ length: page < 3 ? 100 : 7 }, (_, i) => ({ id: page * 1000 + i })),
      };
    }, clock);
    const listed = await planningClient(service.url, { clock }).paginate(
      "/api/v4/groups/1/members",
    );
    expect(listed).toHaveLength(207);
    expect(service.received.map((request) => request.path)).toEqual([
      "/api/v4/groups/1/members?per_page=100",
      "/api/v4/groups/1/members?per_page=100&page=2",
      "/api/v4/groups/1/members?per_page=100&page=3",
    ]);
  });
});

describe("the drift cache on GitLab", () => {
  it("answers the same user's next run from 304s, never another user's, and counts answers without an ETag", async () => {
    const cache = new MemoryCache();
    const path = "/api/v4/projects/1/labels";
    const first = await planningClient(world.url, { cache }).request("GET", path);
    expect(first.fromCache).toBe(false);
    const again = planningClient(world.url, { cache });
    expect((await again.request("GET", path)).fromCache).toBe(true);
    expect(again.stats().notModified).toBe(1);
    const other = planningClient(world.url, { cache, token: new Secret("sandbox-dev", "T") });
    expect((await other.request("GET", path)).fromCache).toBe(false);
    // A change between runs is read in full.
    const created = await call(world, "POST", "/api/v4/projects/1/labels", {
      body: { name: "cached-then-changed", color: "#ff0000" },
    });
    expect(created.status).toBe(201);
    const changed = await planningClient(world.url, { cache }).request<{ name: string }[]>(
      "GET",
      path,
    );
    expect(changed.fromCache).toBe(false);
    expect(changed.data.map((label) => label.name)).toContain("cached-then-changed");
  });

  it("counts answers that carry no ETag: no later run can ask for them conditionally", async () => {
    const clock = new FakeClock();
    service = await FakeService.start(
      (request) =>
        request.path === "/api/v4/user" ? { body: { username: "octo" } } : { body: { id: 1 } },
      clock,
    );
    const client = planningClient(service.url, { clock, cache: new MemoryCache() });
    await client.get("/api/v4/projects/1");
    await client.get("/api/v4/projects/1");
    expect(client.stats().noValidator).toBe(2);
    expect(client.stats().notModified).toBe(0);
  });
});

describe("the budget line of a GitLab plan", () => {
  const base: ReadBudget = {
    rest_requests: 1200,
    from_cache: 0,
    busiest_endpoint: 0,
    graphql_queries: 0,
    graphql_points: 0,
    rest_limit: 5000,
    graphql_limit: 5000,
  };
  const gitlab = {
    rest_requests: 1200,
    from_cache: 0,
    without_validator: 0,
    requests_by_endpoint_group: { "GET /api/v4/projects/:id": 1000, other: 200 },
    graphql_queries: 0,
    graphql_complexity: 0,
  };

  it("states the least time at the busiest of GitLab.com's limits", () => {
    const budget: ReadBudget = {
      ...base,
      gitlab: {
        ...gitlab,
        limits: "gitlab.com",
        endpoint_limits: {
          "GET /api/v4/projects/:id": { limit: 400, window_seconds: 60 },
          "authenticated API": { limit: 2000, window_seconds: 60 },
        },
      },
    };
    expect(leastTime(budget)).toEqual({
      minutes: 2.5,
      limit: "GitLab.com's 400 GET /api/v4/projects/:id requests/min",
    });
    expect(budgetLine(budget)).toBe(
      "Reads on GitLab: 1,200 REST requests (GET /api/v4/projects/:id 1,000, other 200; 0 from the cache), " +
        "0 GraphQL queries (complexity 0) · ≥ 3 min at GitLab.com's 400 GET /api/v4/projects/:id requests/min",
    );
  });

  it("says a self-managed instance publishes no limits, and what no cache can spare", () => {
    const budget: ReadBudget = {
      ...base,
      gitlab: { ...gitlab, without_validator: 200, limits: "none", endpoint_limits: {} },
    };
    expect(leastTime(budget)).toEqual({
      minutes: 0,
      limit: "no published limits (self-managed GitLab)",
    });
    expect(budgetLine(budget)).toBe(
      "Reads on GitLab: 1,200 REST requests (GET /api/v4/projects/:id 1,000, other 200; 0 from the cache, " +
        "200 without an ETag), 0 GraphQL queries (complexity 0) · no published limits (self-managed GitLab)",
    );
  });

  it("keeps GitHub's reads on their own, at GitHub's limits, in a plan of both", () => {
    const budget: ReadBudget = {
      ...base,
      rest_requests: 1500,
      busiest_endpoint: 300,
      gitlab: { ...gitlab, limits: "none", endpoint_limits: {} },
    };
    expect(budgetLine(budget)).toMatch(
      /^Reads: 300 REST requests \(0 from the cache\), 0 GraphQL queries \(0 points\); Reads on GitLab: 1,200 REST requests/,
    );
  });
});
