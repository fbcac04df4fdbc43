// Benchmark: a pull request's plan (`plan --changed-from REF`) over a config selecting 1,000
// repositories at 20 ms latency (`--quick`: 300). The config, committed in a git repository, is the
// plan benchmarks' glob (main and dev protected, two webhooks: 4 resources a repository), one entry
// per team selecting its repositories by custom property (`where: {properties: {team: …}}`) with
// the team's profile, and an override of one repository's main protection. Planned from the commit:
// - a one-line change of that repository's protection: `requests` (target ≤ 15), `wall_s` (≤ 1 s);
// - a change of one team's profile (every tenth repository): `profile_requests`, and
//   `profile_untouched_reads`, the requests beyond GET /rate_limit, the listings of the repositories
//   and their custom properties, and one read per planned resource (target 0).
// `wall_s` is the median of three runs of the one-line plan.
// Prints one JSON line.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  expectExit,
  median,
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
/** The generated repositories' teams (team-01 … team-10 in turn, as the sandbox's --generate). */
const TEAMS = 10;
const team = (index) => `team-${String(index).padStart(2, "0")}`;

function config({ linearHistory = false, reviewsOf = 0 } = {}) {
  const lines = [planConfig().trimEnd(), "  - name: acme/repo-0042"];
  lines.push("    branch_protection:", `      main: { required_linear_history: ${linearHistory} }`);
  for (let index = 1; index <= TEAMS; index++) {
    lines.push(
      "  - name: acme/repo-*",
      `    where: { properties: { team: ${team(index)} } }`,
      `    profiles: [${team(index)}]`,
    );
  }
  lines.push("profiles:");
  for (let index = 1; index <= TEAMS; index++) {
    const reviews = index === reviewsOf ? 2 : 1;
    lines.push(
      `  ${team(index)}:`,
      "    branch_protection:",
      `      dev: { required_pull_request_reviews: { required_approving_review_count: ${reviews} } }`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const dir = tempDir();
const git = (...args) =>
  execFileSync("git", ["-C", dir.path, ...args], { stdio: ["ignore", "pipe", "ignore"] });
const sandbox = await startGeneratedWorld({ repositories, latencyMs });
try {
  const file = join(dir.path, "forgeplan.yaml");
  writeFileSync(file, config({}));
  git("init", "--quiet");
  git("add", "forgeplan.yaml");
  git("-c", "user.name=bench", "-c", "user.email=bench@forgeplan.invalid", "commit", "-qm", "base");
  const plan = async (what) => {
    const out = join(dir.path, `${what}.json`);
    // The REST read path, as the other plan benchmarks: `profile_untouched_reads` counts one read a
    // resource. Since --changed-from keeps --reads, the default (auto) reads the profile's
    // repositories in bulk over GraphQL.
    const args = ["plan", "-c", file, "--sandbox-url", sandbox.url, "--changed-from", "HEAD"];
    args.push("--reads", "rest");
    const before = await sandbox.stats();
    const run = await runForgeplan([...args, "--format", "json", ...sandbox.clientFlags], {
      stdoutFile: out,
    });
    expectExit(`forgeplan plan (${what})`, run, [0, 2]);
    const counts = statsDelta(before, await sandbox.stats());
    const planned = JSON.parse(readFileSync(out, "utf8"));
    const errors = planned.changes.filter((change) => change.error !== undefined).length;
    if (errors > 0) throw new Error(`the ${what} plan has ${errors} errors`);
    return { run, requests: counts.requests, planned };
  };

  writeFileSync(file, config({ linearHistory: true }));
  // The one-line plan takes well under a second, so the machine's load shows: the median of 3 runs.
  const runs = [];
  for (let run = 0; run < 3; run++) runs.push(await plan("one-repository"));
  const one = runs[0];
  if (runs.some((run) => run.requests !== one.requests))
    throw new Error("the runs read differently");
  const oneChanged = one.planned.changes.map((change) => change.address);
  if (oneChanged.join() !== "github/acme/repo-0042/branch_protection/main") {
    throw new Error(`the one-line change planned ${oneChanged.join(", ")}`);
  }

  writeFileSync(file, config({ reviewsOf: 3 }));
  const team = await plan("profile");
  const teamRepos = team.planned.changes.length;
  if (teamRepos !== repositories / TEAMS)
    throw new Error(`the profile change planned ${teamRepos}`);
  // acme/api and acme/web are listed with the generated repositories: 100 a page, for the
  // repositories and for their custom properties.
  const listingPages = 2 * Math.ceil((repositories + 2) / 100);

  report({
    scenario: "pr-scope",
    repositories,
    latency_ms: latencyMs,
    wall_s: median(runs.map((run) => run.run.wall_s)),
    requests: one.requests,
    resources: oneChanged.length,
    left_out: one.planned.partial.unchanged,
    profile_wall_s: Number(team.run.wall_s.toFixed(3)),
    profile_requests: team.requests,
    profile_resources: teamRepos,
    profile_untouched_reads: team.requests - 1 - listingPages - teamRepos,
    peak_rss_mb: Math.max(...runs.map((run) => run.run.peak_rss_mb), team.run.peak_rss_mb),
  });
} finally {
  await sandbox.stop();
  dir.remove();
}
