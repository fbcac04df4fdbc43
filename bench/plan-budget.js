// Benchmark: plan-1k again, but under GitHub's default core limit of 5,000 requests a window, with
// the window shortened to a minute so the run takes seconds (what counts is the share of the window
// a run needs: here 3,012 of 5,000). Nothing forces a wait: the whole plan fits in the budget, so the
// ideal is the unlimited one. `--quick` plans 300 repositories (905 reads) under a limit of 1,500.
// Prints one JSON line.
import { measurePlan, quick, report } from "./_lib.js";

const figures = await measurePlan({
  repositories: quick ? 300 : 1000,
  latencyMs: 20,
  coreLimit: quick ? 1500 : 5000,
  windowSeconds: 60,
});
report({ scenario: "plan-budget", core_limit: quick ? 1500 : 5000, window_s: 60, ...figures });
