// Benchmark: two `forgeplan drift --cache DIR` runs over a converged world of 1,000 repositories
// (`--quick`: 300), authenticated as a GitHub App installation with a different installation token
// each run, as scheduled runs are. The sandbox computes ETags as GitHub does (per token), so only
// validators computed for the new token can be answered 304. A hook is edited by hand between the
// runs: the second run must still report it. Prints second_run_budget_fraction = the installation's
// core budget used by the second run ÷ the first's (target ≤ 0.02). One JSON line.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  appWorld,
  expectExit,
  installationCoreUsed,
  planConfig,
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
const app = await appWorld(dir.path);
const sandbox = await startGeneratedWorld({ repositories, latencyMs, seedFile: app.seedFile });
try {
  const config = join(dir.path, "forgeplan.yaml");
  writeFileSync(config, planConfig().replace("version: 1\n", `version: 1\n${app.targets}\n`));
  // What the cache answers are REST reads: a GraphQL query is never conditional.
  const common = [
    "-c",
    config,
    "--sandbox-url",
    sandbox.url,
    "--reads",
    "rest",
    ...sandbox.clientFlags,
  ];
  const applied = await runForgeplan(["apply", ...common, "--auto-approve"]);
  expectExit("forgeplan apply", applied, [0]);
  const cache = join(dir.path, "cache");
  const runs = [];
  for (const index of [1, 2]) {
    if (index === 2) {
      // The hand edit: the second run must see it although the rest is answered 304.
      const response = await fetch(`${sandbox.url}/repos/acme/repo-0001/hooks`, {
        headers: { Authorization: "Bearer sandbox-admin" },
      });
      const [hook] = await response.json();
      const edit = await fetch(`${sandbox.url}/repos/acme/repo-0001/hooks/${hook.id}`, {
        method: "PATCH",
        headers: { Authorization: "Bearer sandbox-admin", "Content-Type": "application/json" },
        body: JSON.stringify({ events: ["push", "release"] }),
      });
      if (!edit.ok) throw new Error(`the hand edit answered ${edit.status}`);
    }
    const out = join(dir.path, `drift-${index}.json`);
    const usedBefore = await installationCoreUsed(sandbox.url, app.privateKey);
    const before = await sandbox.stats();
    const run = await runForgeplan(["drift", ...common, "--format", "json", "--cache", cache], {
      stdoutFile: out,
    });
    expectExit(`forgeplan drift (run ${index})`, run, index === 1 ? [0] : [2]);
    const after = await sandbox.stats();
    const usedAfter = await installationCoreUsed(sandbox.url, app.privateKey);
    const plan = JSON.parse(readFileSync(out, "utf8"));
    runs.push({
      run,
      budget: usedAfter - usedBefore,
      counts: statsDelta(before, after),
      tokens: after.installation_tokens_issued - before.installation_tokens_issued,
      changed: plan.changes.filter((change) => change.action === "update").map((c) => c.address),
    });
  }
  const [first, second] = runs;
  const seen = second.changed.some((address) =>
    address.startsWith("github/acme/repo-0001/webhook/"),
  );
  if (!seen) throw new Error(`the hand edit was not reported: ${JSON.stringify(second.changed)}`);
  report({
    scenario: "drift-rotated",
    repositories,
    latency_ms: latencyMs,
    wall_s: second.run.wall_s,
    first_wall_s: Number(first.run.wall_s.toFixed(3)),
    requests: second.counts.requests,
    not_modified_responses: second.counts.not_modified_responses,
    // Installation tokens forgeplan minted in each run (the budget reads mint theirs outside that span).
    tokens_per_run: [first.tokens, second.tokens],
    first_run_budget: first.budget,
    second_run_budget: second.budget,
    second_run_budget_fraction: Number((second.budget / first.budget).toFixed(4)),
    hand_edit_seen: seen,
    peak_rss_mb: Math.max(first.run.peak_rss_mb, second.run.peak_rss_mb),
    rate_limited_responses:
      first.counts.rate_limited_responses + second.counts.rate_limited_responses,
  });
} finally {
  await sandbox.stop();
  dir.remove();
}
