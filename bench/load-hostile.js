// Benchmark: config loading stays linear on input built to make it slow. Run after a build:
// `npm run build && node bench/load-hostile.js [--quick]`. Prints one JSON line with `wall_s` per case:
//   merge_keys  — 5,000 entries `- {name: acme/rN, <<: *defaults}` (a YAML merge key each);
//   duplicates  — 100,000 entries naming the same repository, the first and the last defining the
//                 same branch protection: the load must report that one duplicate with both positions;
//   branches    — 20,000 entries naming the same repository, each protecting another branch (the
//                 conflict check once filtered the entries per branch: quadratic, 21 CPU-seconds).
// Each case also gives `yaml_parse_s`: the loader's YAML parser alone reading the same text
// (bench/_loader-parse.js, which `yaml_parser` names), the floor under which the loader cannot go.
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import console from "node:console";
import process from "node:process";
import { formatConfigError } from "../dist/config/index.js";
import { loadDesiredState } from "../dist/engine/desired.js";
import { parseLikeTheLoader } from "./_loader-parse.js";

const quick = process.argv.includes("--quick");
const MERGE_ENTRIES = quick ? 1000 : 5000;
const DUPLICATE_ENTRIES = quick ? 20_000 : 100_000;
const BRANCH_ENTRIES = quick ? 5000 : 20_000;

function mergeKeys() {
  const lines = [
    "version: 1",
    "defaults: &defaults",
    "  branch_protection:",
    "    main: { enforce_admins: true, required_pull_request_reviews: { required_approving_review_count: 1 } }",
    "repositories:",
  ];
  for (let index = 0; index < MERGE_ENTRIES; index++) {
    lines.push(`  - {name: acme/r${index}, <<: *defaults}`);
  }
  return `${lines.join("\n")}\n`;
}

function duplicates() {
  const lines = ["version: 1", "repositories:"];
  for (let index = 0; index < DUPLICATE_ENTRIES; index++) {
    lines.push("- name: acme/api");
    if (index === 0 || index === DUPLICATE_ENTRIES - 1) {
      lines.push("  branch_protection: {main: {enforce_admins: true}}");
    }
  }
  return `${lines.join("\n")}\n`;
}

function branches() {
  const lines = ["version: 1", "repositories:"];
  for (let index = 0; index < BRANCH_ENTRIES; index++) {
    lines.push(`- {name: acme/api, branch_protection: {b${index}: {lock_branch: true}}}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Seconds `work` takes. */
function seconds(work) {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Loads one generated file and returns its figures; `check` throws unless the result is as expected. */
function run(directory, name, text, check) {
  const file = join(directory, `${name}.yaml`);
  writeFileSync(file, text);
  // The result is checked inside, so none of it is still reachable while the floor is measured.
  const wall = seconds(() => check(loadDesiredState([file], { cwd: directory, env: {} }), file));
  let parser;
  const floor = seconds(() => {
    parser = parseLikeTheLoader(text);
  });
  return {
    bytes: statSync(file).size,
    wall_s: Number(wall.toFixed(3)),
    yaml_parse_s: Number(floor.toFixed(3)),
    yaml_parser: parser,
  };
}

const directory = mkdtempSync(join(tmpdir(), "forgeplan-bench-"));
try {
  const merge = run(directory, "merge-keys", mergeKeys(), (result) => {
    if (!result.ok) throw new Error(`merge keys: ${formatConfigError(result.errors[0])}`);
    const merged = result.state.repositories.filter(
      (entry) => entry.settings.branch_protection?.main,
    );
    if (merged.length !== MERGE_ENTRIES) throw new Error(`merge keys: ${merged.length} merged`);
  });
  const duplicate = run(directory, "duplicates", duplicates(), (result, file) => {
    const lastLine = DUPLICATE_ENTRIES + 4;
    const expected =
      `${file}:${lastLine}:29: repositories[${DUPLICATE_ENTRIES - 1}].branch_protection.main: ` +
      `the protection of branch main of acme/api is also defined at ${file}:4 ` +
      "(repositories[0].branch_protection.main); define it in one place";
    const errors = result.ok ? [] : result.errors.map(formatConfigError);
    if (errors.length !== 1 || errors[0] !== expected) {
      throw new Error(
        `duplicates: expected one error naming both places, got ${errors.slice(0, 2)}`,
      );
    }
  });
  const branch = run(directory, "branches", branches(), (result) => {
    if (!result.ok) throw new Error(`branches: ${formatConfigError(result.errors[0])}`);
    if (result.state.repositories.length !== BRANCH_ENTRIES)
      throw new Error("branches: entries lost");
  });
  console.log(
    JSON.stringify({
      scenario: "load-hostile",
      merge_keys: { entries: MERGE_ENTRIES, ...merge },
      duplicates: { entries: DUPLICATE_ENTRIES, ...duplicate },
      branches: { entries: BRANCH_ENTRIES, ...branch },
      peak_rss_mb: Number((process.resourceUsage().maxRSS / 1024).toFixed(1)),
    }),
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
