import { Kind, type OperationDefinitionNode, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { analyse } from "../../src/sandbox/github/graphql/analysis.js";
import { githubSchema } from "../../src/sandbox/github/graphql/schema.js";
import { call, READER, sandbox } from "./helpers.js";

/** GitHub's GraphQL endpoint as the sandbox serves it over the demo world. */

const ask = (
  running: Awaited<ReturnType<typeof sandbox>>,
  query: string,
  variables = {},
  token?: string,
) => call(running, "POST", "/graphql", { body: { query, variables }, ...(token ? { token } : {}) });

function operation(text: string): OperationDefinitionNode {
  const document = parse(text);
  return document.definitions.find(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION,
  )!;
}

describe("cost and node count by GitHub's published formulas", () => {
  it("prices the documentation's example at 5,101 requests, 51 points", () => {
    // "Predicting the point value of a query" in "Rate limits and query limits for the GraphQL API".
    const query = `query { viewer { login repositories(first: 100) { edges { node { id
      issues(first: 50) { edges { node { id labels(first: 60) { edges { node { id name } } } } } } } } } } }`;
    const result = analyse(githubSchema(), operation(query), [], {});
    expect(result).toMatchObject({ requests: 5101, cost: 51 });
  });

  it("counts the documentation's complex query at 22,060 nodes, variables included", () => {
    const query = `query($n: Int!) { viewer { repositories(first: 50) { edges { repository: node { name
      pullRequests(first: 20) { edges { pullRequest: node { title comments(first: $n) { edges { comment: node { bodyHTML } } } } } }
      issues(first: 20) { totalCount edges { issue: node { title bodyHTML comments(first: 10) { edges { comment: node { bodyHTML } } } } } } } } }
      followers(first: 10) { edges { follower: node { login } } } } }`;
    expect(analyse(githubSchema(), operation(query), [], { n: 10 }).nodes).toBe(22_060);
  });

  it("charges at least 1 point: an aliased batch of repositories without connections", async () => {
    const running = await sandbox();
    const response = await ask(
      running,
      `query($o0: String!, $n0: String!, $o1: String!, $n1: String!) {
        r0: repository(owner: $o0, name: $n0) { viewerCanAdminister }
        r1: repository(owner: $o1, name: $n1) { viewerCanAdminister }
        rateLimit { cost remaining limit used nodeCount resetAt } }`,
      { o0: "acme", n0: "api", o1: "acme", n1: "web" },
    );
    expect(response.status).toBe(200);
    expect(response.body.data.r0).toEqual({ viewerCanAdminister: true });
    expect(response.body.data.rateLimit).toMatchObject({
      cost: 1,
      limit: 5000,
      used: 1,
      remaining: 4999,
      nodeCount: 0,
    });
    expect(response.headers.get("x-ratelimit-resource")).toBe("graphql");
    expect(response.headers.get("x-ratelimit-used")).toBe("1");
    expect(running.stats().graphql_queries).toBe(1);
  });
});

describe("answers", () => {
  it("reads a branch's protection rule as REST's record stands", async () => {
    const running = await sandbox();
    const response = await ask(
      running,
      `{ repository(owner: "acme", name: "api") {
          ref(qualifiedName: "refs/heads/main") { name branchProtectionRule {
            pattern requiresApprovingReviews requiredApprovingReviewCount dismissesStaleReviews
            requiresStatusChecks requiresStrictStatusChecks requiredStatusChecks { context app { databaseId slug } }
            restrictsPushes pushAllowances(first: 100) { totalCount } isAdminEnforced } }
          release: ref(qualifiedName: "release") { branchProtectionRule { pattern } }
          nowhere: ref(qualifiedName: "refs/heads/nowhere") { name } } }`,
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.repository).toEqual({
      ref: {
        name: "main",
        branchProtectionRule: {
          pattern: "main",
          requiresApprovingReviews: true,
          requiredApprovingReviewCount: 1,
          dismissesStaleReviews: true,
          requiresStatusChecks: true,
          requiresStrictStatusChecks: true,
          requiredStatusChecks: [
            { context: "ci/build", app: { databaseId: 15368, slug: "ci-bot" } },
          ],
          restrictsPushes: false,
          pushAllowances: { totalCount: 0 },
          isAdminEnforced: false,
        },
      },
      release: { branchProtectionRule: null },
      nowhere: null,
    });
  });

  it("reads rulesets with their rules and bypass actors in GraphQL's enums", async () => {
    const running = await sandbox();
    const response = await ask(
      running,
      `{ repository(owner: "acme", name: "api") { rulesets(first: 10, includeParents: false) { nodes {
          databaseId name target enforcement conditions { refName { include exclude } }
          bypassActors(first: 10) { nodes { actor { ... on Team { slug databaseId } } bypassMode organizationAdmin } }
          rules(first: 10) { nodes { type parameters { __typename } } } } } } }`,
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.repository.rulesets.nodes).toEqual([
      {
        databaseId: 2,
        name: "release tags",
        target: "TAG",
        enforcement: "ACTIVE",
        conditions: { refName: { include: ["refs/tags/v*"], exclude: [] } },
        bypassActors: {
          nodes: [
            {
              actor: { slug: "release-managers", databaseId: 2 },
              bypassMode: "ALWAYS",
              organizationAdmin: false,
            },
          ],
        },
        rules: {
          nodes: [
            { type: "DELETION", parameters: null },
            { type: "UPDATE", parameters: { __typename: "UpdateParameters" } },
          ],
        },
      },
    ]);
  });

  it("hides bypass actors from who may not edit the ruleset, as REST does", async () => {
    const running = await sandbox();
    const response = await ask(
      running,
      `{ repository(owner: "acme", name: "api") { rulesets(first: 1) { nodes { name bypassActors(first: 1) { totalCount } } } } }`,
      {},
      READER,
    );
    expect(response.body.data.repository.rulesets.nodes[0].bypassActors).toBeNull();
  });
});

describe("access and labels", () => {
  it("lists direct collaborators with their highest role and its sources, as REST lists them", async () => {
    const running = await sandbox();
    const response = await ask(
      running,
      `{ repository(owner: "acme", name: "api") { collaborators(first: 100, affiliation: DIRECT) { edges { permission permissionSources { roleName source { __typename } } node { login } } } } }`,
    );
    const edges = response.body.data.repository.collaborators.edges as Array<{
      permission: string;
      node: { login: string };
    }>;
    const rest = await call(running, "GET", "/repos/acme/api/collaborators?affiliation=direct");
    expect(edges.map((edge) => [edge.node.login, edge.permission.toLowerCase()])).toEqual(
      (rest.body as Array<{ login: string; role_name: string }>).map((user) => [
        user.login,
        user.role_name,
      ]),
    );
    expect(response.body.errors).toBeUndefined();
  });

  it("refuses the collaborators to who may not push, at the field, as REST does", async () => {
    const running = await sandbox();
    const response = await ask(
      running,
      `{ repository(owner: "acme", name: "api") { name collaborators(first: 1) { totalCount } } }`,
      {},
      READER,
    );
    expect(response.body.data.repository).toEqual({ name: "api", collaborators: null });
    expect(response.body.errors).toMatchObject([
      {
        type: "FORBIDDEN",
        path: ["repository", "collaborators"],
        message: "Must have push access to view repository collaborators.",
      },
    ]);
  });

  it("lists labels in creation order, as REST does", async () => {
    const running = await sandbox();
    const response = await ask(
      running,
      `{ repository(owner: "acme", name: "api") { labels(first: 100) { nodes { name color description } } } }`,
    );
    const rest = await call(running, "GET", "/repos/acme/api/labels?per_page=100");
    expect(response.body.data.repository.labels.nodes).toEqual(
      (rest.body as Array<{ name: string; color: string; description: string | null }>).map(
        ({ name, color, description }) => ({ name, color, description }),
      ),
    );
  });
});

describe("errors in GitHub's shapes", () => {
  it("a repository that cannot be resolved is its alias's NOT_FOUND, the others answered", async () => {
    const running = await sandbox();
    const response = await ask(
      running,
      `query($o0: String!, $n0: String!, $o1: String!, $n1: String!) {
        r0: repository(owner: $o0, name: $n0) { name }
        r1: repository(owner: $o1, name: $n1) { name } }`,
      { o0: "acme", n0: "nope", o1: "acme", n1: "web" },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { r0: null, r1: { name: "web" } },
      errors: [
        {
          type: "NOT_FOUND",
          path: ["r0"],
          locations: [{ line: 2, column: 9 }],
          message: "Could not resolve to a Repository with the name 'acme/nope'.",
        },
      ],
    });
  });

  it("refuses a connection without first or last, and one over 100, at the connection", async () => {
    const running = await sandbox();
    const response = await ask(
      running,
      `{ repository(owner: "acme", name: "api") { name own: rulesets { totalCount } rulesets(first: 101) { totalCount } } }`,
    );
    expect(response.body.data).toEqual({ repository: { name: "api", own: null, rulesets: null } });
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        type: "MISSING_PAGINATION_BOUNDARIES",
        path: ["repository", "own"],
        message:
          "You must provide a `first` or `last` value to properly paginate the `rulesets` connection.",
      }),
      expect.objectContaining({
        type: "EXCESSIVE_PAGINATION",
        path: ["repository", "rulesets"],
        message:
          "Requesting 101 records on the `rulesets` connection exceeds the `first` limit of 100 records.",
      }),
    ]);
  });

  it("refuses a query over 500,000 nodes before running it", async () => {
    const running = await sandbox();
    const response = await ask(
      running,
      `{ repository(owner: "acme", name: "api") { rulesets(first: 100) { nodes {
          rules(first: 100) { nodes { repositoryRuleset { bypassActors(first: 100) { totalCount } } } } } } } }`,
    );
    expect(response.body).toEqual({
      errors: [
        {
          type: "MAX_NODE_LIMIT_EXCEEDED",
          locations: [{ line: 2, column: 59 }],
          message:
            "By the time this query traverses to the bypassActors connection, it is requesting up to 1,010,100 possible nodes which exceeds the maximum limit of 500,000.",
        },
      ],
    });
    expect(running.stats().rate_limited_responses).toBe(0);
  });

  it("names an unknown field as GitHub does, and answers nothing", async () => {
    const running = await sandbox();
    const response = await ask(running, `{ viewer { bioHtml } }`);
    expect(response.body).toEqual({
      errors: [
        {
          locations: [{ line: 1, column: 12 }],
          message: "Field 'bioHtml' doesn't exist on type 'User'",
        },
      ],
    });
    expect(running.stats().graphql_queries).toBe(1);
  });
});

describe("limits", () => {
  it("answers 200 with RATE_LIMITED once the query's cost is more than is left", async () => {
    const running = await sandbox({ rateLimits: { graphql: 2 } });
    const query = `{ repository(owner: "acme", name: "api") { rulesets(first: 100) { nodes {
      rules(first: 100) { totalCount } } } } }`;
    const first = await ask(running, query);
    expect(first.body.errors).toBeUndefined();
    expect(first.headers.get("x-ratelimit-used")).toBe("1");
    const cheap = await ask(running, `{ rateLimit { cost remaining } }`);
    expect(cheap.body.data.rateLimit).toEqual({ cost: 1, remaining: 0 });
    const refused = await ask(running, query);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded for user ID 1." }],
    });
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(running.stats().rate_limited_responses).toBe(1);
  });

  it("answers 502 to a query that takes longer than the ceiling, a smaller one 200", async () => {
    const running = await sandbox({ graphqlTimeoutMs: 3 });
    const big = await ask(
      running,
      `{ a: repository(owner: "acme", name: "api") { name } b: repository(owner: "acme", name: "web") { name }
         c: repository(owner: "octo-admin", name: "dotfiles") { name } }`,
    );
    expect(big.status).toBe(502);
    expect(big.body.data).toBeNull();
    expect(big.body.errors[0].message).toMatch(
      /^Something went wrong while executing your query\. This may be the result of a timeout/,
    );
    const small = await ask(running, `{ a: repository(owner: "acme", name: "api") { name } }`);
    expect(small.status).toBe(200);
  });

  it("paces the endpoint at its own secondary points, a query costing 1", async () => {
    const running = await sandbox({ graphqlPointsPerMinute: 2 });
    const query = `{ rateLimit { cost } }`;
    expect((await ask(running, query)).status).toBe(200);
    expect((await ask(running, query)).status).toBe(200);
    const third = await ask(running, query);
    expect(third.status).toBe(403);
    expect(third.body.message).toMatch(/secondary rate limit/);
    // REST's budget is the REST endpoints' own.
    expect((await call(running, "GET", "/repos/acme/api/hooks")).status).toBe(200);
  });
});
