// The sandbox as its own process, like `forgeplan sandbox`, plus `--secondary-points N`: the
// secondary limit (points a minute per endpoint and token) the CLI does not expose. Benchmarks that
// measure the client's own speed raise it; everything else is the CLI's flags and first line.
//   node bench/_sandbox.js --secondary-points N [--generate N] [--latency MS]
//                          [--rate-limit CAT=N,…] [--rate-window S]
import { parseArgs } from "node:util";
import { startSandbox } from "../dist/sandbox/index.js";

const { values } = parseArgs({
  options: {
    "secondary-points": { type: "string" },
    generate: { type: "string" },
    latency: { type: "string" },
    "rate-limit": { type: "string" },
    "rate-window": { type: "string" },
  },
});
const number = (value) => (value === undefined ? undefined : Number(value));
const rateLimits =
  values["rate-limit"] === undefined
    ? undefined
    : Object.fromEntries(
        values["rate-limit"].split(",").map((entry) => {
          const [category, limit] = entry.split("=");
          return [category.trim(), Number(limit)];
        }),
      );
const sandbox = await startSandbox({
  port: 0,
  generate: number(values.generate),
  latencyMs: number(values.latency),
  rateLimits,
  rateWindowSeconds: number(values["rate-window"]),
  secondaryPointsPerMinute: number(values["secondary-points"]),
});
console.log(`forgeplan sandbox listening on ${sandbox.url}`);
const stop = async () => {
  await sandbox.stop();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
