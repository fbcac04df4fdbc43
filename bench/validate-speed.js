// Benchmark: any configuration of at most 2 MB validates in under 2 s, whatever it holds (issue
// #35). Each generated hostile case (bench/_hostile-configs.js) is validated by `forgeplan validate`
// as a child process, the way a user runs it, three times (`--quick`: once, at a quarter of the
// size); the line gives each case's size, its fastest and slowest wall time, and how many lines of
// errors it printed (the first 100 in full, then one counting the rest). `yaml_floor_s` is the
// fastest of as many runs of bench/_yaml-floor.js: a fresh Node process in which the YAML library
// alone parses the same file as the loader does, which no loader built on it can beat. Run after a
// build: `npm run build && node bench/validate-speed.js [--quick]`.
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MAX_BYTES, hostileConfigs } from "./_hostile-configs.js";
import { quick, report, runForgeplan, tempDir } from "./_lib.js";

const TARGET_S = 2;
const runs = quick ? 1 : 3;
const bytes = quick ? MAX_BYTES / 4 : MAX_BYTES;
const FLOOR = fileURLToPath(new URL("_yaml-floor.js", import.meta.url));
const directory = tempDir();

/** Wall seconds of a fresh process in which only the YAML library parses `file`. */
function yamlFloor(file) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [FLOOR, file], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  if (result.status !== 0) throw new Error(`the YAML floor of ${file}: ${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

try {
  const cases = {};
  let slowest = 0;
  let peak = 0;
  for (const [name, text] of Object.entries(hostileConfigs(bytes))) {
    const file = join(directory.path, `${name}.yaml`);
    writeFileSync(file, text);
    const walls = [];
    const floors = [];
    let errors = 0;
    for (let run = 0; run < runs; run++) {
      floors.push(yamlFloor(file));
      const result = await runForgeplan(["validate", "-c", file], {
        env: { PATH: process.env.PATH },
      });
      if (result.code !== 0 && result.code !== 1) {
        throw new Error(
          `validate ${name} exited with ${result.code}: ${result.stderr.slice(0, 300)}`,
        );
      }
      if (result.stderr.includes("internal error")) throw new Error(`${name}: ${result.stderr}`);
      walls.push(result.wall_s);
      errors = result.stderr.split("\n").filter((line) => line !== "").length;
      peak = Math.max(peak, result.peak_rss_mb);
    }
    const worst = Math.max(...walls);
    slowest = Math.max(slowest, worst);
    cases[name] = {
      bytes: Buffer.byteLength(text),
      min_s: Number(Math.min(...walls).toFixed(3)),
      max_s: Number(worst.toFixed(3)),
      yaml_floor_s: Number(Math.min(...floors).toFixed(3)),
      error_lines: errors,
    };
  }
  report({
    scenario: "validate-speed",
    runs,
    target_s: TARGET_S,
    wall_s: Number(slowest.toFixed(3)),
    within_target: slowest < TARGET_S,
    cases,
    requests: 0,
    peak_rss_mb: peak,
  });
} finally {
  directory.remove();
}
