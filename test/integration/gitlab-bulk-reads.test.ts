/**
 * GitLab's bulk reads (#38, item 3): for every GitLab project kind with a GraphQL read, from
 * random live states — a random value applied, then a random change made behind forgeplan's back
 * — a random desired value plans the same reading over REST and over GitLab's GraphQL API,
 * change for change. Every query sent validates against the vendored subset of GitLab's schema,
 * names no project in its text, and stays within GitLab's complexity limit (250) and length
 * (10,000 characters). Over the demo world with many projects, through the CLI: the same plan
 * both ways, fewer requests with GraphQL (each project's settings answered by the group's projects
 * listing, each project's members over GraphQL unless they change: GitLab's `ProjectMember` shows
 * no custom role, so a change is planned again from REST's listing).
 *
 * `FC_SEED=7 FC_RUNS=100 npx vitest run test/integration/gitlab-bulk-reads.test.ts` explores further.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { Plan } from "../../src/core/plan.js";
import { predictComplexity } from "../../src/forge/graphql-cost.js";
import { SCOPED_KINDS } from "../../src/resources/index.js";
import { demoWorld, type RecordedRequest, type RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import {
  gitlabComplexity,
  gitlabSchemaProblems,
  sentGitlabQueries,
} from "../helpers/gitlab-graphql.js";
import { interpolated } from "../helpers/graphql.js";
import { sandbox } from "../helpers/sandbox.js";
import type { KindFixture } from "../kinds/fixture.js";
import { FIXTURES } from "../kinds/fixtures/index.js";
import { KindWorld, runs } from "../kinds/harness.js";

const RUNS = 12;
const COVERED = SCOPED_KINDS.project.filter((kind) => kind.part.graphql !== undefined);

function config(fixture: KindFixture, key: string, value: unknown): string {
  const where = fixture.project!;
  return stringify({ version: 1, projects: [{ project: where.at, ...where.entry, [key]: value }] });
}

/** Checks every GitLab query of a run: valid, no value in its text, within GitLab's limits. */
function checkQueries(run: readonly RecordedRequest[], names: readonly string[]): number {
  const queries = sentGitlabQueries(run);
  for (const query of queries) {
    expect(gitlabSchemaProblems(query.query)).toEqual([]);
    expect(interpolated(query, names)).toEqual([]);
    expect(gitlabComplexity(query)).toBeLessThanOrEqual(250);
    // What forgeplan predicted (and packed by) is what GitLab scores.
    expect(predictComplexity(query.query, query.variables)).toBe(gitlabComplexity(query));
    expect(query.query.length).toBeLessThanOrEqual(10_000);
  }
  return queries.length;
}

/** GET requests of a path and the paths under it. */
const reads = (run: readonly RecordedRequest[], path: string) =>
  run.filter((request) => request.method === "GET" && request.path.startsWith(path)).length;

/** GET requests of exactly this path, whatever their query. */
const readsOf = (run: readonly RecordedRequest[], path: string) =>
  run.filter((request) => request.method === "GET" && request.path.split("?")[0] === path).length;

it("GitLab project kinds with a GraphQL read: CI/CD variables, members and labels", () => {
  expect(COVERED.map((kind) => kind.name).sort()).toEqual([
    "gitlab_label",
    "gitlab_variable",
    "members",
  ]);
});

describe.each(COVERED.map((kind) => [kind.name, kind.part.setting.key] as const))(
  "%s plans alike over REST and GitLab's GraphQL API",
  (name, key) => {
    const fixture = FIXTURES[name]!;
    const where = fixture.project!;
    const encoded = `/api/v4/projects/${encodeURIComponent(where.at)}`;

    it("from random live states to random desired values", async () => {
      const drawn = where.desired.chain((live) =>
        fc.record({
          live: fc.constant(live),
          change: where.mutations
            ? fc.option(where.mutations(live), { nil: undefined })
            : fc.constant(undefined),
          desired: where.desired,
        }),
      );
      // Runs whose desired value GraphQL reads (members and labels: additive ones, without a
      // custom role or a priority); the rest plan over REST both ways.
      let bulkRuns = 0;
      await fc.assert(
        fc.asyncProperty(drawn, async ({ live, change, desired }) => {
          const world = await KindWorld.start(fixture);
          try {
            const start = world.load(config(fixture, key, live));
            await world.apply(await world.plan(start), start);
            if (change) await change.send(world.live());
            const state = world.load(config(fixture, key, desired));
            const { rest, graphql, restRun, graphqlRun } = await world.planBothWays(state);
            expect(graphql.changes).toEqual(rest.changes);
            expect(graphql.summary).toEqual(rest.summary);
            if (checkQueries(graphqlRun, [where.at]) > 0) bulkRuns++;
            // A kind read by a partial answer (members, labels) that plans a change plans it again
            // from REST's reads: at most those reads twice; with no change, never more than REST.
            const unchanged = rest.changes.every((c) => c.action === "no-op" && !c.error);
            expect(reads(graphqlRun, encoded)).toBeLessThanOrEqual(
              reads(restRun, encoded) * (unchanged ? 1 : 2),
            );
          } finally {
            await world.stop();
          }
        }),
        runs(38, RUNS),
      );
      expect(bulkRuns).toBeGreaterThan(0);
    }, 60_000);
  },
);

describe("a partial answer (members: no custom role over GraphQL)", () => {
  const fixture = FIXTURES.members!;
  const members = "/api/v4/projects/acme%2Fapi/members";
  const membersConfig = (users: Record<string, unknown>) =>
    config(fixture, "members", { users: { "octo-dev": "developer", ...users } });

  it("plans what changes again from REST's answer, and reads nothing more when nothing changes", async () => {
    const world = await KindWorld.start(fixture);
    try {
      // octo-reader holds a custom role (Reporter + security, base level reporter).
      const start = world.load(
        membersConfig({
          "octo-reader": { access_level: "reporter", member_role: "Reporter + security" },
        }),
      );
      await world.apply(await world.plan(start), start);
      const compare = async (yaml: string) => {
        const { rest, graphql, restRun, graphqlRun } = await world.planBothWays(world.load(yaml));
        expect(graphql.changes).toEqual(rest.changes);
        expect(sentGitlabQueries(graphqlRun).length).toBe(1);
        expect(readsOf(restRun, members)).toBe(1);
        return { changes: rest.changes, memberReads: readsOf(graphqlRun, members) };
      };
      // Unchanged (the role is not written, so not compared): GraphQL's answer is kept.
      const same = await compare(membersConfig({ "octo-reader": "reporter" }));
      expect(same.changes.every((change) => change.action === "no-op")).toBe(true);
      expect(same.memberReads).toBe(0);
      // Another level takes the role away (`member_role_id: null`), which only REST's answer
      // shows: the kind is planned again from it.
      const changed = await compare(membersConfig({ "octo-reader": "developer" }));
      const update = changed.changes.find((change) => change.name === "octo-reader");
      expect(update?.requests[0]?.body).toEqual({ access_level: 30, member_role_id: null });
      expect(changed.memberReads).toBe(1);
    } finally {
      await world.stop();
    }
  });
});

describe("a partial answer (labels: no priority over GraphQL)", () => {
  const fixture = FIXTURES.gitlab_label!;
  const labels = "/api/v4/projects/acme%2Fapi/labels";

  it("compares no priority it does not write, and plans an edit from REST's answer", async () => {
    const world = await KindWorld.start(fixture);
    try {
      const start = world.load(
        config(fixture, "labels", { items: { triage: { color: "#aa0000", priority: 2 } } }),
      );
      await world.apply(await world.plan(start), start);
      const compare = async (items: Record<string, unknown>) => {
        const state = world.load(config(fixture, "labels", { items }));
        const { rest, graphql, graphqlRun } = await world.planBothWays(state);
        expect(graphql.changes).toEqual(rest.changes);
        expect(sentGitlabQueries(graphqlRun).length).toBe(1);
        return { changes: rest.changes, labelReads: readsOf(graphqlRun, labels) };
      };
      // Priority 2 is live but not written: neither compared nor shown, over REST or GraphQL.
      const same = await compare({ triage: { color: "#aa0000" } });
      expect(same.changes.map((change) => change.action)).toEqual(["no-op"]);
      expect(same.labelReads).toBe(0);
      const edited = await compare({ triage: { color: "#00aa00" } });
      expect(edited.changes[0]?.diff).toEqual([
        { path: "color", before: "#aa0000", after: "#00aa00" },
      ]);
      expect(edited.changes[0]?.requests[0]?.body).toEqual({ color: "#00aa00" });
      expect(edited.labelReads).toBe(1);
    } finally {
      await world.stop();
    }
  });
});

/** The demo world with 30 more projects in acme, each with members and CI/CD variables. */
function manyProjects(): string {
  const seed = structuredClone(demoWorld) as { projects: Array<Record<string, unknown>> };
  const first = Math.max(...seed.projects.map((project) => Number(project.id)));
  for (let index = 1; index <= 30; index++) {
    seed.projects.push({
      id: first + index,
      group: "acme",
      path: `service-${index}`,
      name: `service-${index}`,
      members: index % 3 === 0 ? { hubot: "developer" } : { mona: "maintainer" },
      ...(index % 3 !== 0 && index % 5 === 0 ? { member_expiry: { mona: "2031-01-31" } } : {}),
      variables: [
        { key: "REGION", value: `eu-${index}`, masked: false },
        { key: "TOKEN", value: `token_${index}_secret`, masked: true, hidden: index % 4 === 0 },
        // More than a first page (20) in one project: read on by a follow-up query.
        ...(index === 7
          ? Array.from({ length: 24 }, (_, n) => ({ key: `EXTRA_${n}`, value: `extra-${n}` }))
          : []),
      ],
    });
  }
  const file = join(mkdtempSync(join(tmpdir(), "forgeplan-gitlab-bulk-")), "world.yaml");
  writeFileSync(file, stringify(seed));
  return file;
}

describe("the demo world with many projects, through the CLI", () => {
  let running: RunningSandbox;
  const requests: RecordedRequest[] = [];
  beforeAll(async () => {
    running = await sandbox({
      seed: manyProjects(),
      onRequest: (request) => requests.push(request),
    });
  });
  afterAll(() => running.stop());

  async function plan(readsMode: string) {
    const dir = mkdtempSync(join(tmpdir(), "forgeplan-gitlab-bulk-"));
    const file = join(dir, "forgeplan.yaml");
    writeFileSync(
      file,
      stringify({
        version: 1,
        projects: [
          {
            project: "acme/*",
            settings: { request_access_enabled: true },
            // Expiry compared where written: some projects' mona ends then, others' never.
            members: {
              users: {
                mona: { access_level: "maintainer", expires_at: "2031-01-31" },
                "octo-dev": "developer",
              },
            },
            variables: { items: { REGION: { value: "${REGION}" } } },
          },
        ],
      }),
    );
    const from = requests.length;
    const result = await runInProcess(
      ["plan", "-c", file, "--sandbox-url", running.url, "--format", "json", "--reads", readsMode],
      { env: { REGION: "eu-1" } },
    );
    expect(result.stderr).toBe("");
    return { plan: JSON.parse(result.stdout) as Plan, run: requests.slice(from) };
  }

  it("its POST /api/graphql answers as GitLab: permissions as REST's, its limits refused", async () => {
    const ask = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
      const response = await fetch(`${running.url}/api/graphql`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ query, variables }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { data?: unknown; errors?: Array<{ message: string }> };
    };
    const one =
      "query($p: ID!) { project(fullPath: $p) { fullPath ciVariables(first: 5) { nodes { key } } } }";
    expect(await ask("sandbox-admin", one, { p: "acme/nope" })).toEqual({
      data: { project: null },
    });
    // octo-reader sees acme/api but is no Maintainer: REST's 403 is GraphQL's null.
    expect(await ask("sandbox-reader", one, { p: "acme/api" })).toEqual({
      data: { project: { fullPath: "acme/api", ciVariables: null } },
    });
    const page = await ask(
      "sandbox-admin",
      'query { project(fullPath: "acme/api") { ciVariables(first: 101) { nodes { key } } } }',
    );
    expect(page.errors?.[0]?.message).toMatch(/max page size of 100/);
    const projects = Array.from(
      { length: 25 },
      (_, index) =>
        `p${index}: project(fullPath: "acme/service-${index + 1}") { ciVariables(first: 100) { nodes { key value } } }`,
    );
    const heavy = await ask("sandbox-admin", `query { ${projects.join(" ")} }`);
    expect(heavy.data).toBeUndefined();
    expect(heavy.errors?.[0]?.message).toMatch(
      /^Query has complexity of \d+, which exceeds max complexity of 250$/,
    );
    const long = await ask("sandbox-admin", `query { ${"__typename ".repeat(1_000)}}`);
    expect(long.errors?.[0]?.message).toMatch(/^Query too large/);
  });

  it("plans alike both ways, in fewer requests over GraphQL (also with auto)", async () => {
    const rest = await plan("rest");
    const before = running.stats();
    const graphql = await plan("graphql");
    // The sandbox counts GitLab's queries as queries, never as mutations.
    expect(running.stats().graphql_queries - before.graphql_queries).toBe(
      sentGitlabQueries(graphql.run).length,
    );
    expect(running.stats().mutations_applied).toBe(before.mutations_applied);
    expect(graphql.plan.changes).toEqual(rest.plan.changes);
    expect(graphql.plan.summary).toEqual(rest.plan.summary);
    expect(sentGitlabQueries(rest.run)).toEqual([]);
    const queries = checkQueries(graphql.run, ["acme/api", "acme/service-1"]);
    // The budget line counts GitLab's queries and their complexity, never as GitHub's points.
    const sent = sentGitlabQueries(graphql.run);
    expect(graphql.plan.budget?.gitlab).toMatchObject({
      graphql_queries: sent.length,
      graphql_complexity: sent.reduce((sum, query) => sum + gitlabComplexity(query), 0),
    });
    expect(graphql.plan.budget?.graphql_points).toBe(0);
    // 32 projects of acme, a few to a query within the complexity limit.
    expect(queries).toBeGreaterThan(1);
    expect(graphql.run.length).toBeLessThan(rest.run.length);
    // Members are read over GraphQL as a partial answer: a project whose members change is
    // planned again from REST's listing (acme/api's member with a custom role among them).
    const membersChanged = (project: string) =>
      rest.plan.changes.some(
        (c) => c.kind === "members" && c.scope === `acme/${project}` && c.action !== "no-op",
      );
    const projects = ["api", ...Array.from({ length: 30 }, (_, index) => `service-${index + 1}`)];
    expect(projects.filter(membersChanged).length).toBeGreaterThan(0);
    expect(projects.filter((project) => !membersChanged(project)).length).toBeGreaterThan(0);
    for (const project of projects) {
      const members = `/api/v4/projects/acme%2F${project}/members`;
      expect(readsOf(rest.run, members)).toBe(1);
      expect(readsOf(graphql.run, members)).toBe(membersChanged(project) ? 1 : 0);
    }
    // Every project's variables over GraphQL.
    expect(readsOf(graphql.run, "/api/v4/projects/acme%2Fapi/variables")).toBe(0);
    for (const project of ["service-1", "service-7", "service-15", "service-30"]) {
      const path = `/api/v4/projects/acme%2F${project}`;
      // The group's projects listing answers GET /projects/:id for the settings kind.
      expect(readsOf(rest.run, path)).toBe(1);
      expect(readsOf(graphql.run, path)).toBe(0);
      expect(readsOf(graphql.run, `${path}/variables`)).toBe(0);
    }
    expect(sentGitlabQueries(graphql.run).some((query) => query.query.includes("after:"))).toBe(
      true,
    );
    // `auto` reads a target of 25 projects or more as `graphql` does.
    const auto = await plan("auto");
    expect(auto.plan.changes).toEqual(rest.plan.changes);
    expect(sentGitlabQueries(auto.run).length).toBe(queries);
    // No value of a variable in anything printed.
    expect(JSON.stringify(graphql.plan)).not.toContain("token_1_secret");
  }, 30_000);
});
