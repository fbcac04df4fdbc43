// Benchmark: a drift check of N generated repositories (full profile: two protected branches, a
// collaborator, two teams, GitHub's default labels and a ruleset in each; the protections, the
// ruleset, two labels, the collaborator, the teams and a few settings managed: issues, wiki, head
// branches kept once merged, the default branch, no topics, Dependabot alerts off), planned once
// reading over REST and once in bulk (GraphQL, and the teams from the organization's side). One
// JSON line per read path:
// what it spent (REST requests and GraphQL points as the sandbox counted them against its budgets),
// its wall time, the least time GitHub's published limits allow for those reads with a personal
// token, and whether both plans are the same, change for change. `--quick`: 1,000 repositories;
// otherwise 10,000.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  planReading,
  quick,
  report,
  ROOT,
  samePlans,
  startSandboxProcess,
  tempDir,
} from "./_lib.js";

const repositories = quick ? 1000 : 10_000;
const { leastTime } = await import(join(ROOT, "dist", "core", "budget.js"));

/** Budgets so large that no run waits on them: the limits are applied to the counts instead. */
const UNLIMITED = "core=100000000,graphql=100000000";
const POINTS = "100000000";

/** What every repository holds, as the configuration manages it: every read comes back unchanged. */
const config = [
  "version: 1",
  "repositories:",
  "  - name: acme/repo-*",
  "    branch_protection:",
  "      main:",
  "        required_status_checks: { strict: true, checks: [{ context: ci/build, app_id: 15368 }] }",
  "        enforce_admins: false",
  "        required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true }",
  "        restrictions: null",
  "      dev:",
  "        required_linear_history: true",
  "    rulesets:",
  "      baseline:",
  "        enforcement: active",
  "        conditions: { ref_name: { include: ['~DEFAULT_BRANCH'] } }",
  "        bypass_actors: [{ role: admin }]",
  "        rules: { deletion: true, non_fast_forward: true }",
  "    labels:",
  "      items:",
  "        bug: { color: d73a4a }",
  "        enhancement: { color: a2eeef, description: New feature or request }",
  "    access:",
  "      users: { octo-dev: write }",
  "      teams: { platform: write, release-managers: maintain }",
  "    settings:",
  "      has_issues: true",
  "      has_wiki: true",
  "      delete_branch_on_merge: false",
  "      default_branch: main",
  "      topics: []",
  "      vulnerability_alerts: false",
  "",
].join("\n");

const dir = tempDir();
const sandbox = await startSandboxProcess(
  [
    "--generate",
    String(repositories),
    "--generate-profile",
    "full",
    "--rate-limit",
    UNLIMITED,
    "--graphql-limit",
    POINTS,
  ],
  { secondaryPointsPerMinute: Number(POINTS) },
);

async function rateUsed() {
  const response = await fetch(`${sandbox.url}/rate_limit`, {
    headers: { Authorization: "Bearer sandbox-admin" },
  });
  const { resources } = await response.json();
  return { core: resources.core.used, graphql: resources.graphql.used };
}

async function planWith(reads) {
  const planFile = join(dir.path, `${reads}.json`);
  const before = { stats: await sandbox.stats(), used: await rateUsed() };
  const { run, plan } = await planReading(reads, {
    sandbox,
    config: join(dir.path, "forgeplan.yaml"),
    planFile,
    flags: sandbox.clientFlags,
  });
  const after = { stats: await sandbox.stats(), used: await rateUsed() };
  const restRequests = after.used.core - before.used.core;
  const graphqlQueries = after.stats.graphql_queries - before.stats.graphql_queries;
  const graphqlPoints = after.used.graphql - before.used.graphql;
  // The sandbox's counts, with the busiest REST endpoint as the plan's own budget line counted it.
  const least = leastTime({
    rest_requests: restRequests,
    from_cache: 0,
    busiest_endpoint: plan.budget.busiest_endpoint,
    graphql_queries: graphqlQueries,
    graphql_points: graphqlPoints,
    rest_limit: 5000,
    graphql_limit: 5000,
  });
  return {
    plan,
    line: {
      scenario: "bulk-read",
      reads,
      repositories,
      rest_requests: restRequests,
      graphql_queries: graphqlQueries,
      graphql_points: graphqlPoints,
      primary_budget: graphqlPoints + restRequests,
      wall_s: run.wall_s,
      minutes_at_github_limits: Number(least.minutes.toFixed(1)),
      bound_by: least.limit,
      peak_rss_mb: run.peak_rss_mb,
    },
  };
}

try {
  writeFileSync(join(dir.path, "forgeplan.yaml"), config);
  const rest = await planWith("rest");
  const graphql = await planWith("graphql");
  const same = samePlans(rest.plan, graphql.plan);
  for (const { line } of [rest, graphql]) report({ ...line, plans_identical: same });
} finally {
  await sandbox.stop();
  dir.remove();
}
