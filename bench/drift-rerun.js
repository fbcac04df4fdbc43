// Benchmark: two `forgeplan drift --cache DIR` runs over the same unchanged, converged world (the
// desired state is applied first); the second should
// be answered almost entirely by 304s, which cost no rate budget. Reports
// second_run_budget_fraction = core budget used by the second run ÷ the first's (read from
// GET /rate_limit, which is free). 1,000 repositories at 20 ms (`--quick`: 300). One JSON line.
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import {
  expectExit,
  planConfig,
  planResources,
  quick,
  report,
  runForgeplan,
  startGeneratedWorld,
  statsDelta,
  tempDir,
} from "./_lib.js";

const repositories = quick ? 300 : 1000;
const latencyMs = 20;
const dir = tempDir();
const sandbox = await startGeneratedWorld({ repositories, latencyMs });
try {
  const config = join(dir.path, "forgeplan.yaml");
  writeFileSync(config, planConfig());
  // What the cache answers are REST reads: a GraphQL query is never conditional.
  const reads = ["--reads", "rest"];
  // Drift is checked on a managed world: apply the desired state first, so every protection exists
  // and answers with an ETag (an unprotected branch's 404 has none and is always read in full).
  const applied = await runForgeplan(
    [
      "apply",
      "-c",
      config,
      "--sandbox-url",
      sandbox.url,
      "--auto-approve",
      "--format",
      "json",
      ...reads,
      ...sandbox.clientFlags,
    ],
    { stdoutFile: join(dir.path, "apply.json") },
  );
  expectExit("forgeplan apply", applied, [0]);
  const cache = join(dir.path, "cache");
  const runs = [];
  for (const index of [1, 2]) {
    const out = join(dir.path, `drift-${index}.json`);
    // GET /rate_limit is free but counted in requests_total: read it outside the stats' span.
    const usedBefore = await sandbox.coreUsed();
    const before = await sandbox.stats();
    const run = await runForgeplan(
      [
        "drift",
        "-c",
        config,
        "--sandbox-url",
        sandbox.url,
        "--format",
        "json",
        "--cache",
        cache,
        ...reads,
        ...sandbox.clientFlags,
      ],
      { stdoutFile: out },
    );
    expectExit(`forgeplan drift (run ${index})`, run, [0, 2]);
    const counts = statsDelta(before, await sandbox.stats());
    runs.push({
      run,
      budget: (await sandbox.coreUsed()) - usedBefore,
      counts,
      resources: planResources(out).resources,
    });
  }
  const [first, second] = runs;
  report({
    scenario: "drift-rerun",
    repositories,
    latency_ms: latencyMs,
    wall_s: second.run.wall_s,
    first_wall_s: Number(first.run.wall_s.toFixed(3)),
    requests: second.counts.requests,
    resources: second.resources,
    not_modified_responses: second.counts.not_modified_responses,
    first_run_budget: first.budget,
    second_run_budget: second.budget,
    second_run_budget_fraction: Number((second.budget / first.budget).toFixed(4)),
    peak_rss_mb: Math.max(first.run.peak_rss_mb, second.run.peak_rss_mb),
    rate_limited_responses:
      first.counts.rate_limited_responses + second.counts.rate_limited_responses,
  });
} finally {
  await sandbox.stop();
  dir.remove();
}
