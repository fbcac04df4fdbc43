// Benchmark: plan 1,000 repositories × (protected `main` and `dev` + two webhooks) against a sandbox
// answering after 20 ms, at the default concurrency of 8. Ideal: requests × latency ÷ concurrency.
// `--quick` plans 300 repositories. Prints one JSON line.
import { measurePlan, quick, report } from "./_lib.js";

const figures = await measurePlan({ repositories: quick ? 300 : 1000, latencyMs: 20 });
report({ scenario: "plan-1k", ...figures });
