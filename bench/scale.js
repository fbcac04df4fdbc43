// Benchmark: the same plan at 100, 1,000 and 10,000 repositories (`--quick`: 100 and 1,000), at
// zero latency so that what grows is forgeplan's own work and memory. One JSON line per size.
import { measurePlan, quick, report } from "./_lib.js";

const sizes = quick ? [100, 1000] : [100, 1000, 10_000];
for (const repositories of sizes) {
  const figures = await measurePlan({ repositories, latencyMs: 0 });
  report({ scenario: "scale", ...figures });
}
