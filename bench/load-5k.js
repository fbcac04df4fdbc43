// Benchmark: load a desired state that selects 5,000 repositories by name, with defaults and a
// profile applied to each. Run after a build: `npm run build && node bench/load-5k.js`.
// Prints one JSON line: {"scenario":"load-5k","wall_s":…,"resources":…,"peak_rss_mb":…}
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import console from "node:console";
import process from "node:process";
import { loadDesiredState } from "../dist/engine/desired.js";

const REPOSITORIES = 5000;

function generate() {
  const lines = [
    "version: 1",
    "defaults:",
    "  branch_protection:",
    "    main:",
    "      enforce_admins: true",
    "      required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true }",
    "      required_status_checks: { strict: true, checks: [{ context: ci/build, app_id: 15368 }] }",
    "  webhooks:",
    "    hooks:",
    '      - { url: https://ci.acme.example/hooks/forge, events: [push, pull_request], secret: "${CI_HOOK_SECRET}" }',
    "      - { url: https://chat.acme.example/notify, events: [issues, issue_comment] }",
    "  invitations: { allowed_invitees: [octo-*], max_age_days: 90 }",
    "profiles:",
    "  strict:",
    "    branch_protection:",
    "      main: { required_pull_request_reviews: { required_approving_review_count: 2 }, restrictions: null }",
    "      dev: { allow_force_pushes: false }",
    "repositories:",
  ];
  for (let index = 1; index <= REPOSITORIES; index++) {
    const name = `acme/repo-${String(index).padStart(4, "0")}`;
    lines.push(`  - name: ${name}`, "    profiles: [strict]");
    if (index % 10 === 0) lines.push("    branch_protection: { main: { lock_branch: false } }");
  }
  return `${lines.join("\n")}\n`;
}

const directory = mkdtempSync(join(tmpdir(), "forgeplan-bench-"));
try {
  const file = join(directory, "forgeplan.yaml");
  writeFileSync(file, generate());
  const started = process.hrtime.bigint();
  const result = loadDesiredState([file], { cwd: directory, env: { CI_HOOK_SECRET: "bench" } });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (!result.ok) throw new Error(`the generated config is invalid: ${result.errors[0]?.message}`);
  const { repositories } = result.state;
  if (repositories.length !== REPOSITORIES)
    throw new Error(`selected ${repositories.length} repositories`);
  const resources = repositories.reduce(
    (sum, entry) =>
      sum +
      Object.keys(entry.settings.branch_protection ?? {}).length +
      (entry.settings.webhooks?.hooks?.length ?? 0) +
      (entry.settings.invitations === undefined ? 0 : 1),
    0,
  );
  const peak = process.resourceUsage().maxRSS / 1024;
  console.log(
    JSON.stringify({
      scenario: "load-5k",
      wall_s: Number(wall.toFixed(3)),
      resources,
      peak_rss_mb: Number(peak.toFixed(1)),
    }),
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
