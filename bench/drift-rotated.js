// Benchmark: two `forgeplan drift --cache DIR` runs over a converged world of 1,000 repositories
// (`--quick`: 300), each run with a new installation token, as scheduled runs have. Two credentials:
// - `drift-rotated`: the target signs in as the GitHub App, and forgeplan mints each run's token;
// - `drift-rotated-minted`: each run is given a token minted outside forgeplan (a workflow's
//   `actions/create-github-app-token`, or its GITHUB_TOKEN), which `GET /user` refuses (403), so the
//   cache cannot name whose it is and files its entries under the target and URL.
// The sandbox computes ETags as GitHub does (per token), so only validators computed for the new
// token can be answered 304. A hook is edited by hand between the runs: the second run must still
// report it. Prints second_run_budget_fraction = the installation's core budget used by the second
// run ÷ the first's (target ≤ 0.02). One JSON line per credential.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  appWorld,
  expectExit,
  installationCoreUsed,
  mintInstallationToken,
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

/** Adds an event to the first hook of `repo` as a person would in the web interface. */
async function editHook(repo) {
  const headers = { Authorization: "Bearer sandbox-admin", "Content-Type": "application/json" };
  const response = await fetch(`${sandbox.url}/repos/acme/${repo}/hooks`, { headers });
  const [hook] = await response.json();
  const edit = await fetch(`${sandbox.url}/repos/acme/${repo}/hooks/${hook.id}`, {
    method: "PATCH",
    headers,
    body: JSON.stringify({ events: ["push", "release", "create"] }),
  });
  if (!edit.ok) throw new Error(`the hand edit answered ${edit.status}`);
}

/**
 * Two drift runs with a fresh cache: `runArgs(index)` gives each run's flags and environment; the
 * hook of `edited` is changed between them.
 */
async function measure(scenario, edited, runArgs) {
  const cache = join(dir.path, `cache-${scenario}`);
  const runs = [];
  for (const index of [1, 2]) {
    if (index === 2) await editHook(edited);
    const out = join(dir.path, `${scenario}-${index}.json`);
    const { args, env } = await runArgs();
    const usedBefore = await installationCoreUsed(sandbox.url, app.privateKey);
    const before = await sandbox.stats();
    // What the cache answers are REST reads: a GraphQL query is never conditional.
    const reads = ["--reads", "rest"];
    const run = await runForgeplan(
      ["drift", ...args, ...reads, "--format", "json", "--cache", cache],
      {
        stdoutFile: out,
        env,
      },
    );
    expectExit(`forgeplan drift (${scenario}, run ${index})`, run, index === 1 ? [0] : [2]);
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
    address.startsWith(`github/acme/${edited}/webhook/`),
  );
  if (!seen) throw new Error(`the hand edit was not reported: ${JSON.stringify(second.changed)}`);
  report({
    scenario,
    repositories,
    latency_ms: latencyMs,
    wall_s: second.run.wall_s,
    first_wall_s: Number(first.run.wall_s.toFixed(3)),
    requests: second.counts.requests,
    not_modified_responses: second.counts.not_modified_responses,
    // Installation tokens minted in each run, by forgeplan or for it (the budget reads mint theirs outside that span).
    tokens_per_run: [first.tokens, second.tokens],
    first_run_budget: first.budget,
    second_run_budget: second.budget,
    second_run_budget_fraction: Number((second.budget / first.budget).toFixed(4)),
    hand_edit_seen: seen,
    peak_rss_mb: Math.max(first.run.peak_rss_mb, second.run.peak_rss_mb),
    rate_limited_responses:
      first.counts.rate_limited_responses + second.counts.rate_limited_responses,
  });
}

try {
  const appConfig = join(dir.path, "forgeplan.yaml");
  writeFileSync(appConfig, planConfig().replace("version: 1\n", `version: 1\n${app.targets}\n`));
  const viaApp = ["-c", appConfig, "--sandbox-url", sandbox.url, ...sandbox.clientFlags];
  // Each case starts from a converged world: the hand edit of the one before is undone.
  const converge = async () =>
    expectExit(
      "forgeplan apply",
      await runForgeplan(["apply", ...viaApp, "--reads", "rest", "--auto-approve"]),
      [0],
    );
  await converge();
  await measure("drift-rotated", "repo-0001", async () => ({ args: viaApp, env: process.env }));
  await converge();

  // A token target on the sandbox's address: no --sandbox-url, which would sign in as its admin.
  const tokenConfig = join(dir.path, "minted.yaml");
  const target = `targets:\n  github: { type: repository, base_url: "${sandbox.url}", token_env: GITHUB_TOKEN }`;
  writeFileSync(tokenConfig, planConfig().replace("version: 1\n", `version: 1\n${target}\n`));
  await measure("drift-rotated-minted", "repo-0002", async () => {
    const before = await sandbox.stats();
    const token = await mintInstallationToken(sandbox.url, app.privateKey);
    // The mint is the workflow's step, not forgeplan's: leave it out of the run's counts.
    if ((await sandbox.stats()).requests_total !== before.requests_total + 1) {
      throw new Error("the sandbox was sent something while a token was minted");
    }
    return {
      // Not --sandbox-url, so forgeplan takes the sandbox for GitHub and paces to its CPU-time limit
      // (3,000 answers at 20 ms are a minute of response time); the sandbox enforces none, and the
      // scenario measures the cache, so the limit is raised out of the way.
      args: ["-c", tokenConfig, ...sandbox.clientFlags, "--cpu-limit", "3600"],
      env: { ...process.env, GITHUB_TOKEN: token },
    };
  });
} finally {
  await sandbox.stop();
  dir.remove();
}
