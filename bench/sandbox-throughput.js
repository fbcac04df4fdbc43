// Throughput of the sandbox: GET requests per second over keep-alive loopback connections against a
// world with generated repositories. The load comes from worker threads so that the generator does
// not share the sandbox's event loop. Bounded in count; prints one JSON line.
//   node bench/sandbox-throughput.js [requests=20000] [concurrency=32] [repositories=10000] [clients=1]
import { Agent, request } from "node:http";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { startSandbox } from "../dist/sandbox/index.js";

const PATHS = [
  (n) => `/repos/acme/repo-${n}/hooks`,
  (n) => `/repos/acme/repo-${n}/branches/main`,
  () => "/repos/acme/api/branches/main/protection",
  (n) => `/repos/acme/repo-${n}`,
];

/** One load generator: `count` GETs with `concurrency` requests in flight, counting non-200s. */
async function generateLoad({ url, count, concurrency, repositories, offset }) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const width = Math.max(4, String(repositories).length);
  const get = (path) =>
    new Promise((resolve, reject) => {
      const req = request(
        `${url}${path}`,
        { agent, headers: { Authorization: "Bearer sandbox-admin" } },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode));
        },
      );
      req.on("error", reject);
      req.end();
    });
  let next = 0;
  let failures = 0;
  const loop = async () => {
    while (next < count) {
      const index = offset + next++;
      const number = String((index % repositories) + 1).padStart(width, "0");
      if ((await get(PATHS[index % PATHS.length](number))) !== 200) failures++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  agent.destroy();
  return failures;
}

if (!isMainThread) {
  parentPort.postMessage(await generateLoad(workerData));
} else {
  // `--quick` (from `npm run bench -- --quick`) runs a small version; numbers override the defaults.
  const quick = process.argv.includes("--quick");
  const [
    total = quick ? 2_000 : 20_000,
    concurrency = 32,
    repositories = quick ? 1_000 : 10_000,
    clients = 1,
  ] = process.argv
    .slice(2)
    .filter((arg) => arg !== "--quick")
    .map(Number);
  const startup = performance.now();
  const sandbox = await startSandbox({
    generate: repositories,
    rateLimits: { core: total * 2 },
    secondaryPointsPerMinute: total * 10,
  });
  const startupMs = performance.now() - startup;
  const share = Math.ceil(total / clients);
  const started = performance.now();
  const failures = await Promise.all(
    Array.from({ length: clients }, (_, index) => {
      const worker = new Worker(new URL(import.meta.url), {
        workerData: {
          url: sandbox.url,
          count: share,
          concurrency: Math.ceil(concurrency / clients),
          repositories,
          offset: index * share,
        },
      });
      return new Promise((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      });
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const served = sandbox.stats().requests_total;
  await sandbox.stop();
  console.log(
    JSON.stringify({
      benchmark: "sandbox-throughput",
      requests: served,
      concurrency,
      clients,
      repositories,
      startup_ms: Math.round(startupMs),
      seconds: Number(seconds.toFixed(2)),
      requests_per_second: Math.round(served / seconds),
      failures: failures.reduce((sum, value) => sum + value, 0),
    }),
  );
}
