// Benchmark: any configuration of at most 2 MB validates in under 2 s, whatever it holds (issue
// #35). Each generated hostile case (bench/_hostile-configs.js) is validated by `forgeplan validate`
// as a child process, the way a user runs it, three times (`--quick`: once, at a quarter of the
// size); the line gives each case's size, its fastest and slowest wall time, its fewest CPU seconds
// (user + system, from GNU time: on a machine shared with other work, wall time counts the others'
// work too), and how many lines of errors it printed (the first 100 in full, then one counting the
// rest). `within_target` holds each case's fastest run to the target, `wall_s` and `cpu_s` are the
// slowest case's. `yaml_floor_s` / `yaml_floor_cpu_s` are the fastest of as many runs of
// bench/_yaml-floor.js: a fresh Node process in which the YAML parser the loader uses (js-yaml's
// events, or the YAML library where js-yaml refuses the file) alone parses the same file, which no
// loader built on it can beat; `yaml_parser` names it. Run after a build:
// `npm run build && node bench/validate-speed.js [--quick]`.
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

/** Wall and CPU seconds of a fresh process in which only the loader's YAML parser reads `file`. */
function yamlFloor(file) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [FLOOR, file], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.status !== 0) throw new Error(`the YAML floor of ${file}: ${result.stderr}`);
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const { parser, cpu_s: cpu } = JSON.parse(String(result.stdout));
  return { wall, cpu, parser };
}

const seconds = (value) => Number(value.toFixed(3));
/** The fewest CPU seconds, or null where GNU time is not installed to measure them. */
const fewest = (values) => (values.includes(undefined) ? null : seconds(Math.min(...values)));

try {
  const cases = {};
  let slowest = 0;
  let slowestCpu = 0;
  let peak = 0;
  for (const [name, text] of Object.entries(hostileConfigs(bytes))) {
    const file = join(directory.path, `${name}.yaml`);
    writeFileSync(file, text);
    const walls = [];
    const cpus = [];
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
      cpus.push(result.cpu_s);
      errors = result.stderr.split("\n").filter((line) => line !== "").length;
      peak = Math.max(peak, result.peak_rss_mb);
    }
    const best = Math.min(...walls);
    const cpu = fewest(cpus);
    slowest = Math.max(slowest, best);
    slowestCpu = Math.max(slowestCpu, cpu ?? 0);
    cases[name] = {
      bytes: Buffer.byteLength(text),
      min_s: seconds(best),
      max_s: seconds(Math.max(...walls)),
      cpu_s: cpu,
      yaml_floor_s: seconds(Math.min(...floors.map((floor) => floor.wall))),
      yaml_floor_cpu_s: seconds(Math.min(...floors.map((floor) => floor.cpu))),
      yaml_parser: floors[0].parser,
      error_lines: errors,
    };
  }
  report({
    scenario: "validate-speed",
    runs,
    target_s: TARGET_S,
    wall_s: seconds(slowest),
    cpu_s: seconds(slowestCpu),
    within_target: slowest < TARGET_S,
    cases,
    requests: 0,
    peak_rss_mb: peak,
  });
} finally {
  directory.remove();
}
