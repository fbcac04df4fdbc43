// Benchmark: a GitLab drift check of N generated projects in 100 subgroups (`--generate-projects N
// --generate-project-groups 100 --generate-profile full`: each project's settings, protected main,
// a member, a CI/CD variable, two labels and a webhook, all managed and all unchanged), against a
// sandbox enforcing GitLab.com's per-endpoint limits (`--gitlab-com-limits`), planned once reading
// over REST and once in bulk over GitLab's GraphQL API. One JSON line per read path: what it
// spent as the plan's budget line counted it (REST requests by GitLab.com's endpoint groups,
// GraphQL queries and their complexity), its wall time, the least time GitLab.com's published
// limits allow for those reads (`minutes_at_gitlab_limits`, the plan's own figure), the 429s the
// sandbox answered, and whether both plans are the same, change for change. `--quick`: 1,000
// projects; otherwise 10,000.
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

const projects = quick ? 1000 : 10_000;
const GROUPS = 100;
const { leastTime } = await import(join(ROOT, "dist", "core", "budget.js"));

/** What every generated project holds, as the configuration manages it. */
const config = [
  "version: 1",
  "targets:",
  "  gitlab: { type: gitlab, limits: gitlab.com }",
  "projects:",
  "  - project: acme/team-*/*",
  "    settings:",
  '      description: ""',
  "      visibility: private",
  "    protected_branches:",
  "      branches:",
  "        main: { push: [maintainer], merge: [developer] }",
  "    members:",
  "      users:",
  "        octo-dev: developer",
  "    variables:",
  "      items:",
  '        DEPLOY_ENV: { value: "${DEPLOY_ENV}" }',
  "    labels:",
  "      items:",
  '        flaky-test: { color: "#d9534f", description: Fails now and then }',
  '        enhancement: { color: "#5cb85c" }',
  "    webhooks:",
  "      hooks:",
  "        - url: https://ci.acme.example/hooks/forge",
  "          events: [push, merge_requests]",
  "",
].join("\n");

const dir = tempDir();
const sandbox = await startSandboxProcess([
  "--generate-projects",
  String(projects),
  "--generate-project-groups",
  String(GROUPS),
  "--generate-profile",
  "full",
  "--gitlab-com-limits",
  // The sandbox's own hourly budget (GitHub's shape, 5,000 by default) would run out first: the
  // GitLab.com limits under test are the per-endpoint ones above and the 2,000 requests a minute
  // the client paces itself to.
  "--rate-limit",
  "core=100000000,graphql=100000000",
]);

async function planWith(reads) {
  const planFile = join(dir.path, `${reads}.json`);
  const before = await sandbox.stats();
  const { run, plan } = await planReading(reads, {
    sandbox,
    config: join(dir.path, "forgeplan.yaml"),
    planFile,
    env: { ...process.env, DEPLOY_ENV: "production" },
  });
  const after = await sandbox.stats();
  const gitlab = plan.budget.gitlab;
  return {
    plan,
    line: {
      scenario: "gitlab-bulk-read",
      reads,
      projects,
      rest_requests: gitlab.rest_requests,
      graphql_queries: gitlab.graphql_queries,
      graphql_complexity: gitlab.graphql_complexity,
      requests_by_endpoint_group: gitlab.requests_by_endpoint_group,
      sandbox_requests: after.requests_total - before.requests_total,
      minutes_at_gitlab_limits: Number(leastTime(plan.budget).minutes.toFixed(1)),
      bound_by: leastTime(plan.budget).limit,
      wall_s: run.wall_s,
      rate_limited: after.rate_limited_responses - before.rate_limited_responses,
      peak_rss_mb: run.peak_rss_mb,
    },
  };
}

try {
  writeFileSync(join(dir.path, "forgeplan.yaml"), config);
  const rest = await planWith("rest");
  // Each path starts in a minute of its own, as two scheduled runs would: GitLab.com counts a
  // user's requests per minute, and a new process learns what the last one spent only from the
  // RateLimit-* headers of its first answers, after its first requests have gone out.
  await new Promise((resolve) => setTimeout(resolve, 61_000));
  const graphql = await planWith("graphql");
  const same = samePlans(rest.plan, graphql.plan);
  for (const { line } of [rest, graphql]) report({ ...line, plans_identical: same });
} finally {
  await sandbox.stop();
  dir.remove();
}
