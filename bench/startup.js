// Benchmark: `forgeplan --version` wall time, the median of 15 runs (`--quick`: 10), as a user's
// shell starts it. Prints one JSON line.
import { median, quick, report, runForgeplan } from "./_lib.js";

const runs = quick ? 10 : 15;
const walls = [];
let peak = 0;
for (let index = 0; index < runs; index++) {
  const run = await runForgeplan(["--version"]);
  if (run.code !== 0) throw new Error(`forgeplan --version exited with ${run.code}`);
  walls.push(run.wall_s);
  peak = Math.max(peak, run.peak_rss_mb);
}
report({
  scenario: "startup",
  runs,
  wall_s: median(walls),
  min_s: Number(Math.min(...walls).toFixed(3)),
  max_s: Number(Math.max(...walls).toFixed(3)),
  requests: 0,
  resources: 0,
  peak_rss_mb: peak,
  rate_limited_responses: 0,
});
