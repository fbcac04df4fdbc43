// Benchmark: apply 500 changes (a new protection on `main` of each generated repository) under a
// core limit the run cannot fit in one window, with `--write-interval 0`. The apply plans, writes,
// then re-plans to verify: about 3 requests per change, so 1,000 a 60-second window forces one wait.
// `--quick`: 100 changes, 200 per 5-second window. Prints one JSON line.
//
// Ideal: the service lets `limit` requests through per window, starting at the first request, so
// `requests` need at least floor((requests - 1) / limit) windows of waiting; writes are not spaced.
// The secondary limit (900 points a minute per endpoint, a write costs 5) is raised: 500 PUTs on one
// endpoint within a minute would trip it by design, and this measures the primary-limit pacing.
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import {
  expectExit,
  quick,
  report,
  runForgeplan,
  startSandboxProcess,
  statsDelta,
  tempDir,
} from "./_lib.js";

const changes = quick ? 100 : 500;
const limit = quick ? 200 : 1000;
const windowSeconds = quick ? 5 : 60;
const writeIntervalMs = 0;

const config = [
  "version: 1",
  "repositories:",
  "  - name: acme/repo-*",
  "    branch_protection:",
  "      main:",
  "        enforce_admins: true",
  "        required_pull_request_reviews: { required_approving_review_count: 1 }",
  "        required_status_checks: null",
  "        restrictions: null",
  "",
].join("\n");

const dir = tempDir();
const sandbox = await startSandboxProcess(
  [
    "--generate",
    String(changes),
    "--rate-limit",
    `core=${limit}`,
    "--rate-window",
    String(windowSeconds),
  ],
  { secondaryPointsPerMinute: 1_000_000 },
);
try {
  const file = join(dir.path, "forgeplan.yaml");
  writeFileSync(file, config);
  const before = await sandbox.stats();
  const run = await runForgeplan(
    [
      "apply",
      "-c",
      file,
      "--sandbox-url",
      sandbox.url,
      "--auto-approve",
      "--write-interval",
      String(writeIntervalMs),
      "--format",
      "json",
      // Its plans read a request per protection, what the limit paces.
      "--reads",
      "rest",
      ...sandbox.clientFlags,
    ],
    { stdoutFile: join(dir.path, "report.json") },
  );
  expectExit("forgeplan apply", run, [0]);
  const counts = statsDelta(before, await sandbox.stats());
  if (counts.mutations_applied !== changes) {
    throw new Error(`applied ${counts.mutations_applied} changes, expected ${changes}`);
  }
  const windows = Math.floor((counts.requests - 1) / limit);
  const spacing = (Math.max(0, changes - 1) * writeIntervalMs) / 1000;
  report({
    scenario: "apply-limited",
    changes,
    core_limit: limit,
    window_s: windowSeconds,
    write_interval_ms: writeIntervalMs,
    wall_s: run.wall_s,
    requests: counts.requests,
    resources: changes,
    mutations_applied: counts.mutations_applied,
    waits_announced: run.stderr.split("\n").filter((line) => line.includes("waiting for")).length,
    ideal_s: Math.max(windows * windowSeconds, spacing),
    peak_rss_mb: run.peak_rss_mb,
    rate_limited_responses: counts.rate_limited_responses,
    ...(run.cpu_s !== undefined ? { forgeplan_cpu_s: run.cpu_s } : {}),
  });
} finally {
  await sandbox.stop();
  dir.remove();
}
