// Benchmark: plan 1,000 repositories × (protected `main` and `dev` + two webhooks) against a sandbox
// answering after 20 ms, at the default concurrency of 8. Ideal: requests × latency ÷ concurrency.
// floor_s: the same requests from a bare node:http client against the same sandbox, i.e. what the
// machine and the sandbox allow, measured right after each plan. Three plans, each with its floor;
// the figures are medians (ratio_to_floor: of each plan's ratio to its floor). `--quick` plans 300
// repositories once. Prints one JSON line.
import { measurePlan, quick, report } from "./_lib.js";

const figures = await measurePlan({
  repositories: quick ? 300 : 1000,
  latencyMs: 20,
  withFloor: true,
  runs: quick ? 1 : 3,
});
report({ scenario: "plan-1k", ...figures });
