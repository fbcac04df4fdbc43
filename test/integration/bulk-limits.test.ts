/**
 * Bulk reads under GitHub's limits, against the sandbox: a batch that takes longer than the
 * GraphQL ceiling (answered 502, as GitHub answers a query it cannot finish in 10 s) is split until
 * its halves fit, and the plan completes as REST plans it; connections longer than their first page
 * are completed by follow-up queries; `auto` reads a handful of repositories over REST and many in
 * bulk; a run whose reads cannot fit what is left of the budget within the maximum wait stops
 * before it reads anything, with the estimate.
 */
import { describe, expect, it } from "vitest";
import { GENERATED_FULL } from "../../src/sandbox/seed/generate.js";
import type { RecordedRequest } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { type EngineEntry, sandboxEngine } from "../helpers/engine.js";
import { schemaProblems, sentQueries } from "../helpers/graphql.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

/** Every generated repository, managed as the full profile made it: every plan is a no-op. */
const everyRepository: EngineEntry = {
  selector: { kind: "glob", owner: "acme", pattern: "repo-*", exclude: [] },
  ownerType: "organization",
  settings: {
    branch_protection: { ...GENERATED_FULL.protections },
    rulesets: {
      baseline: {
        enforcement: "active",
        conditions: { ref_name: { include: ["~DEFAULT_BRANCH"] } },
        bypass_actors: [{ role: "admin" }],
        rules: { deletion: true, non_fast_forward: true },
      },
    },
  },
};

describe("GraphQL's limits", () => {
  it("splits a batch the ceiling answers 502 until it fits, and plans as REST does", async () => {
    const requests: RecordedRequest[] = [];
    const world = await sandbox({
      generate: 60,
      generateProfile: "full",
      graphqlTimeoutMs: 400,
      onRequest: (request) => requests.push(request),
    });
    try {
      const engine = sandboxEngine(world);
      const state = engine.state([everyRepository]);
      const rest = await engine.plan(state, "rest");
      expect(rest.errors).toBe(0);
      expect(rest.summary.create + rest.summary.update + rest.summary.delete).toBe(0);
      const before = world.stats();
      const graphql = await engine.plan(state, "graphql");
      const after = world.stats();
      expect(graphql.changes).toEqual(rest.changes);
      const timeouts =
        (after.responses_by_status["502"] ?? 0) - (before.responses_by_status["502"] ?? 0);
      expect(timeouts).toBeGreaterThan(0);
      // Every protection and ruleset was answered by the halves that fit: none was read over REST.
      const reads = requests.slice(-(after.requests_total - before.requests_total));
      expect(
        reads.filter(
          (request) => /\/(protection|rulesets)/.test(request.path) && request.method === "GET",
        ),
      ).toEqual([]);
      for (const query of sentQueries(reads)) expect(schemaProblems(query.query)).toEqual([]);
    } finally {
      await world.stop();
    }
  });

  it("reads the rest of a connection with follow-up queries", async () => {
    const world = await sandbox({ generate: 1 });
    try {
      // Three rulesets on the repository; the configuration names one, so the first page holds one.
      for (const name of ["first", "second", "third"]) {
        const created = await call(world, "POST", "/repos/acme/repo-0001/rulesets", {
          body: { name, target: "branch", enforcement: "disabled", rules: [{ type: "deletion" }] },
        });
        expect(created.status).toBe(201);
      }
      const engine = sandboxEngine(world);
      const state = engine.state([
        {
          selector: { kind: "name", owner: "acme", repo: "repo-0001" },
          ownerType: "organization",
          settings: { rulesets: { third: { enforcement: "active", rules: { deletion: true } } } },
        },
      ]);
      const rest = await engine.plan(state, "rest");
      const before = world.stats();
      const graphql = await engine.plan(state, "graphql");
      expect(graphql.changes).toEqual(rest.changes);
      expect(graphql.changes.map((change) => change.action)).toEqual(["update"]);
      // The batch's query, then one follow-up page of rulesets.
      expect(world.stats().graphql_queries - before.graphql_queries).toBe(2);
    } finally {
      await world.stop();
    }
  });
});

describe("--reads", () => {
  /** `plan` of `main`'s protection of the repositories `pattern` selects, with `flags`. */
  const planOf = (world: { url: string }, pattern: string, ...flags: string[]) =>
    runInProcess([
      "plan",
      "-c",
      configFile(`version: 1
repositories:
  - name: acme/${pattern}
    branch_protection:
      main:
        required_linear_history: false
`),
      "--sandbox-url",
      world.url,
      ...flags,
    ]);

  it("auto reads a handful of repositories over REST, many in bulk; the budget line says so", async () => {
    const world = await sandbox({ generate: 30 });
    try {
      const few = await planOf(world, "repo-000*", "--format", "json");
      expect(JSON.parse(few.stdout).budget).toMatchObject({
        graphql_queries: 0,
        rest_requests: 10,
      });
      const many = await planOf(world, "repo-*", "--format", "json");
      expect(JSON.parse(many.stdout).budget).toMatchObject({
        graphql_queries: 1,
        graphql_points: 1,
      });
      const text = await planOf(world, "repo-*", "--reads", "rest");
      expect(text.stdout).toContain(
        "Reads: 31 REST requests (0 from the cache), 0 GraphQL queries (0 points) · ≥ 23 s at 5,000 REST requests/h",
      );
    } finally {
      await world.stop();
    }
  });

  it("stops a run that cannot fit the budget within --max-wait before reading, with the estimate", async () => {
    const world = await sandbox({ generate: 30, rateLimits: { core: 20 } });
    try {
      const before = world.stats().requests_total;
      const refused = await planOf(world, "repo-*", "--reads", "rest");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /^forgeplan: plan: not started: target 'github' needs at least 30 REST requests and 0 GraphQL points \(≥ 1 h 30 min at 20 REST requests\/h\); \d+ REST requests are left to spend until \d\d:\d\d UTC, \d+ min from now, longer than the maximum wait of 15 min; nothing was read/,
      );
      // The budget read and the listing of the repositories, nothing of them.
      expect(world.stats().requests_total - before).toBe(2);
      expect((await planOf(world, "repo-*", "--reads", "graphql")).code).toBe(2);
    } finally {
      await world.stop();
    }
  });
});
