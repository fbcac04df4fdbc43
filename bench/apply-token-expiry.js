// Benchmark: an apply that outlives its installation token several times over. The sandbox issues
// tokens that live 60 s (`--quick`: 10 s); forgeplan, signed in as a GitHub App, writes 200
// protections a second apart (`--quick`: 30), over three minutes of writes. Prints failed_requests
// (changes that failed plus 401 answers; target 0) and token_refreshes (tokens minted after the
// first; target ≥ 2). One JSON line.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  appWorld,
  expectExit,
  quick,
  report,
  runForgeplan,
  startSandboxProcess,
  statsDelta,
  tempDir,
} from "./_lib.js";

const repositories = quick ? 30 : 200;
const ttlSeconds = quick ? 10 : 60;
const writeIntervalMs = 1000;
const dir = tempDir();
const app = await appWorld(dir.path);
const sandbox = await startSandboxProcess([
  "--seed",
  app.seedFile,
  "--generate",
  String(repositories),
  "--token-ttl",
  String(ttlSeconds),
  "--rate-limit",
  "core=10000000",
]);
try {
  const config = join(dir.path, "forgeplan.yaml");
  writeFileSync(
    config,
    [
      "version: 1",
      app.targets,
      "repositories:",
      "  - name: acme/repo-*",
      "    branch_protection:",
      "      main:",
      "        enforce_admins: true",
      "        required_pull_request_reviews: { required_approving_review_count: 1 }",
      "        required_status_checks: null",
      "        restrictions: null",
      "",
    ].join("\n"),
  );
  const before = await sandbox.stats();
  const out = join(dir.path, "apply.txt");
  const run = await runForgeplan(
    [
      "apply",
      "-c",
      config,
      "--sandbox-url",
      sandbox.url,
      "--auto-approve",
      "--write-interval",
      String(writeIntervalMs),
      // The figures are of REST reads and writes under expiring tokens.
      "--reads",
      "rest",
    ],
    { stdoutFile: out },
  );
  const after = await sandbox.stats();
  const summary = /Apply: (\d+) applied, (\d+) failed/.exec(readFileSync(out, "utf8"));
  expectExit("forgeplan apply", run, [0, 1]);
  const counts = statsDelta(before, after);
  const unauthorized =
    (after.responses_by_status["401"] ?? 0) - (before.responses_by_status["401"] ?? 0);
  const failed = (summary ? Number(summary[2]) : repositories) + unauthorized;
  const minted = after.installation_tokens_issued - before.installation_tokens_issued;
  report({
    scenario: "apply-token-expiry",
    repositories,
    token_ttl_s: ttlSeconds,
    write_interval_ms: writeIntervalMs,
    wall_s: run.wall_s,
    token_lifetimes: Number((run.wall_s / ttlSeconds).toFixed(1)),
    requests: counts.requests,
    applied: summary ? Number(summary[1]) : 0,
    failed_requests: failed,
    unauthorized_responses: unauthorized,
    token_refreshes: minted - 1,
    exit_code: run.code,
    peak_rss_mb: run.peak_rss_mb,
    rate_limited_responses: counts.rate_limited_responses,
  });
} finally {
  await sandbox.stop();
  dir.remove();
}
