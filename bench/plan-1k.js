// Benchmark: plan 1,000 repositories × (protected `main` and `dev` + two webhooks) against a sandbox
// answering after 20 ms, at the default concurrency of 8. Ideal: requests × latency ÷ concurrency.
// floor_s: the same requests from a bare node:http client against the same sandbox, i.e. what the
// machine and the sandbox allow. `--quick` plans 300 repositories. Prints one JSON line.
import { measurePlan, quick, report } from "./_lib.js";

const figures = await measurePlan({
  repositories: quick ? 300 : 1000,
  latencyMs: 20,
  withFloor: true,
});
report({ scenario: "plan-1k", ...figures });
