// Shared helpers of the benchmarks: a sandbox in its own process, forgeplan run as a child process
// the way a user runs it (wall time and peak RSS measured from outside), and the JSON line each
// scenario prints. Files starting with `_` are not scenarios (bench/run.js skips them).
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setInterval, clearInterval } from "node:timers";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const CLI = join(ROOT, "dist", "bin", "forgeplan.js");
const TIME = "/usr/bin/time";
const ADMIN = { Authorization: "Bearer sandbox-admin" };
/** Clock ticks per second of /proc/PID/stat (USER_HZ); 100 on every Linux we run on. */
const TICKS = 100;

export const quick = process.argv.includes("--quick");

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir() {
  const path = mkdtempSync(join(tmpdir(), "forgeplan-bench-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** CPU seconds (user + system) a running process has used so far, or undefined off Linux. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at state, field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

/**
 * Starts `forgeplan sandbox` in its own process and resolves once it listens. `flags` are the
 * sandbox's (`--generate`, `--latency`, `--rate-limit`, `--rate-window`). The secondary limit (900
 * points a minute per endpoint, writes cost 5) caps a fast run over thousands of resources by
 * design; `secondaryPointsPerMinute` raises it in the sandbox (`--secondary-limit`), and `clientFlags`
 * are the flags that tell forgeplan the same budget (`--points-per-minute`), so the scenario measures
 * forgeplan rather than the limit.
 */
export async function startSandboxProcess(flags, { secondaryPointsPerMinute } = {}) {
  const points = secondaryPointsPerMinute === undefined ? [] : [String(secondaryPointsPerMinute)];
  const args = [
    CLI,
    "sandbox",
    "--port",
    "0",
    ...flags,
    ...points.flatMap((n) => ["--secondary-limit", n]),
  ];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  child.stderr.on("data", (chunk) => (errors += chunk));
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const onData = (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        child.stdout.off("data", onData);
        child.stdout.resume();
        resolve(match[1]);
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`the sandbox exited with ${code} before listening: ${errors.trim()}`)),
    );
  });
  child.removeAllListeners("exit");
  const get = async (path) => {
    const response = await fetch(`${url}${path}`, { headers: ADMIN });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    return response.json();
  };
  return {
    url,
    clientFlags: points.flatMap((n) => ["--points-per-minute", n]),
    pid: child.pid,
    stats: () => get("/_sandbox/stats"),
    /** The core budget spent so far (GET /rate_limit itself is free). */
    coreUsed: async () => (await get("/rate_limit")).resources.core.used,
    cpuSeconds: () => cpuSeconds(child.pid),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGINT");
      }),
  };
}

/**
 * Runs `forgeplan ARGS` as a child process with stdout to `stdoutFile`, measuring wall time and
 * peak RSS from outside: GNU time's %M (and CPU seconds) where installed, else the child's VmHWM
 * sampled from /proc.
 */
export async function runForgeplan(args, { stdoutFile, env = process.env } = {}) {
  const out = stdoutFile ? openSync(stdoutFile, "w") : "ignore";
  const timed = existsSync(TIME);
  const rssFile = timed ? join(tmpdir(), `forgeplan-bench-rss-${process.pid}-${Date.now()}`) : "";
  const argv = timed
    ? [TIME, "-f", "%M %U %S", "-o", rssFile, process.execPath, CLI, ...args]
    : [process.execPath, CLI, ...args];
  const started = process.hrtime.bigint();
  const child = spawn(argv[0], argv.slice(1), { stdio: ["ignore", out, "pipe"], env });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  let sampledKb = 0;
  const sampler = timed
    ? undefined
    : setInterval(() => {
        try {
          const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
          if (match) sampledKb = Math.max(sampledKb, Number(match[1]));
        } catch {
          // The child has exited between two samples.
        }
      }, 20);
  const code = await new Promise((resolve) => child.once("exit", (status) => resolve(status)));
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (sampler) clearInterval(sampler);
  if (typeof out === "number") closeSync(out);
  const result = { code, stderr, wall_s: wall, peak_rss_mb: sampledKb / 1024 };
  if (timed) {
    // GNU time prints a status line first when the command exits non-zero; the figures are last.
    const lines = readFileSync(rssFile, "utf8").trim().split("\n");
    const [peakKb, user, system] = lines.at(-1).split(" ").map(Number);
    result.peak_rss_mb = peakKb / 1024;
    result.cpu_s = user + system;
    rmSync(rssFile, { force: true });
  }
  return result;
}

/** Fails the scenario unless the child exited with one of the expected codes. */
export function expectExit(what, result, codes) {
  if (!codes.includes(result.code)) {
    throw new Error(`${what} exited with ${result.code}: ${result.stderr.trim().slice(0, 500)}`);
  }
}

/**
 * `forgeplan plan --reads READS --format json` of `config` against a sandbox, exiting with one of
 * `codes` (0, no change, unless told): the plan and the run (wall time, CPU, peak memory). `flags`
 * and `env` are added to the command's.
 */
export async function planReading(
  reads,
  { sandbox, config, planFile, flags = [], env, codes = [0] },
) {
  const run = await runForgeplan(
    [
      "plan",
      "-c",
      config,
      "--sandbox-url",
      sandbox.url,
      "--reads",
      reads,
      "--format",
      "json",
      ...flags,
    ],
    { stdoutFile: planFile, ...(env !== undefined ? { env } : {}) },
  );
  expectExit(`forgeplan plan --reads ${reads}`, run, codes);
  return { run, plan: JSON.parse(readFileSync(planFile, "utf8")) };
}

/** Whether two JSON plans are the same, change for change. */
export function samePlans(a, b) {
  return (
    JSON.stringify(a.changes) === JSON.stringify(b.changes) &&
    JSON.stringify(a.summary) === JSON.stringify(b.summary)
  );
}

/** Changes of a JSON plan that manage something (audit reports excluded), by action. */
export function planResources(planFile) {
  const plan = JSON.parse(readFileSync(planFile, "utf8"));
  const managed = plan.changes.filter((change) => change.action !== "report");
  const errors = plan.changes.filter((change) => change.error !== undefined).length;
  return { resources: managed.length, summary: plan.summary, errors };
}

/** The difference of two /_sandbox/stats answers, for the counters a scenario reports. */
export function statsDelta(before, after) {
  const delta = (key) => after[key] - before[key];
  return {
    requests: delta("requests_total"),
    rate_limited_responses: delta("rate_limited_responses"),
    not_modified_responses: delta("not_modified_responses"),
    mutations_applied: delta("mutations_applied"),
  };
}

const round = (value, digits) => Number(value.toFixed(digits));

/** Prints the scenario's one JSON line, with the derived ratios and figures rounded. */
export function report(figures) {
  const line = { ...figures };
  if (line.requests !== undefined && line.resources) {
    line.requests_per_resource = round(line.requests / line.resources, 3);
  }
  if (line.ideal_s !== undefined && line.wall_s !== undefined && line.ideal_s > 0) {
    line.ratio_to_ideal = round(line.wall_s / line.ideal_s, 2);
  }
  for (const key of ["wall_s", "ideal_s", "floor_s", "sandbox_cpu_s", "forgeplan_cpu_s"]) {
    if (typeof line[key] === "number") line[key] = round(line[key], 3);
  }
  if (typeof line.peak_rss_mb === "number") line.peak_rss_mb = round(line.peak_rss_mb, 1);
  console.log(JSON.stringify(line));
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The desired state every plan benchmark uses: both protected branches and both hooks managed. */
export function planConfig() {
  return [
    "version: 1",
    "repositories:",
    "  - name: acme/repo-*",
    "    branch_protection:",
    "      main:",
    "        enforce_admins: true",
    "        required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true }",
    "        required_status_checks: { strict: true, checks: [{ context: ci/build, app_id: 15368 }] }",
    "        restrictions: null",
    "      dev:",
    "        allow_force_pushes: false",
    "    webhooks:",
    "      hooks:",
    "        - { url: https://ci.acme.example/hooks/forge, events: [push], content_type: json }",
    "        - { url: https://chat.acme.example/notify, events: [issues], content_type: json }",
    "",
  ].join("\n");
}

/** Plans use the default concurrency, which is what `ideal_s` divides by. */
export const CONCURRENCY = 8;
/** Budgets so large that neither limit is what a plan benchmark measures. */
const UNLIMITED = { core: 10_000_000, secondaryPoints: 10_000_000 };

/**
 * A sandbox process with a generated world of `repositories` (on top of `seedFile`, if given),
 * answering after `latencyMs`, under a core limit of `coreLimit` per `windowSeconds` (unlimited by
 * default) and no secondary limit to speak of: what the scenarios that measure forgeplan run against.
 */
export function startGeneratedWorld({
  repositories,
  latencyMs,
  seedFile,
  coreLimit = UNLIMITED.core,
  windowSeconds,
}) {
  return startSandboxProcess(
    [
      ...(seedFile !== undefined ? ["--seed", seedFile] : []),
      "--generate",
      String(repositories),
      "--latency",
      String(latencyMs),
      "--rate-limit",
      `core=${coreLimit}`,
      ...(windowSeconds !== undefined ? ["--rate-window", String(windowSeconds)] : []),
    ],
    { secondaryPointsPerMinute: UNLIMITED.secondaryPoints },
  );
}

/**
 * Plans `planConfig()` over a generated world of `repositories` with `latencyMs` per answer and
 * returns the figures every plan scenario reports. `ideal_s` is requests × latency ÷ concurrency.
 * Without `coreLimit` neither rate limit applies. `withFloor` also times a bare client (floor_s).
 */
/**
 * The floor of this machine and sandbox: the same number of GETs over the same paths, at the same
 * concurrency, from a bare node:http keep-alive client that parses each body and does nothing
 * else. What a plan takes beyond this is forgeplan's own cost.
 */
async function bareClientSeconds(url, requests, repositories) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const width = Math.max(4, String(repositories).length);
  const pathOf = (index) => {
    const repo = `/repos/acme/repo-${String((index % repositories) + 1).padStart(width, "0")}`;
    return [`${repo}/branches/main/protection`, `${repo}/branches/dev/protection`, `${repo}/hooks`][
      index % 3
    ];
  };
  const get = (path) =>
    new Promise((resolve, reject) => {
      const req = request(`${url}${path}`, { agent, headers: ADMIN }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve(JSON.parse(body)));
      });
      req.on("error", reject);
      req.end();
    });
  let next = 0;
  const started = process.hrtime.bigint();
  const lane = async () => {
    while (next < requests) await get(pathOf(next++));
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  agent.destroy();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/**
 * Plans the generated world `runs` times (`--reads rest`), each run followed, with `withFloor`, by
 * the same number of requests from a bare client: `wall_s` and `floor_s` are the medians, and
 * `ratio_to_floor` the median of each run's ratio to the floor measured right after it, so one
 * moment of a busy machine moves neither.
 */
export async function measurePlan({
  repositories,
  latencyMs,
  coreLimit,
  windowSeconds,
  withFloor = false,
  runs = 1,
}) {
  const dir = tempDir();
  const sandbox = await startGeneratedWorld({
    repositories,
    latencyMs,
    ...(coreLimit !== undefined ? { coreLimit } : {}),
    windowSeconds,
  });
  try {
    const config = join(dir.path, "forgeplan.yaml");
    writeFileSync(config, planConfig());
    const planFile = join(dir.path, "plan.json");
    const measured = [];
    for (let index = 0; index < runs; index++) {
      const before = await sandbox.stats();
      const sandboxCpu = sandbox.cpuSeconds();
      // These scenarios measure the REST read path; bench/bulk-read.js compares it with GraphQL.
      const { run } = await planReading("rest", {
        sandbox,
        config,
        planFile,
        flags: sandbox.clientFlags,
        codes: [0, 2],
      });
      const sandboxCpuAfter = sandbox.cpuSeconds();
      const counts = statsDelta(before, await sandbox.stats());
      const { resources, errors } = planResources(planFile);
      if (errors > 0) throw new Error(`the plan has ${errors} errors`);
      const floor = withFloor
        ? await bareClientSeconds(sandbox.url, counts.requests, repositories)
        : undefined;
      measured.push({ run, counts, resources, floor, sandboxCpu: sandboxCpuAfter - sandboxCpu });
    }
    const [first] = measured;
    if (measured.some((one) => one.counts.requests !== first.counts.requests)) {
      throw new Error("the runs sent different numbers of requests");
    }
    const { counts, resources } = first;
    const wall = median(measured.map((one) => one.run.wall_s));
    const floor = withFloor ? median(measured.map((one) => one.floor)) : undefined;
    const cpu = measured.every((one) => one.run.cpu_s !== undefined)
      ? Number(median(measured.map((one) => one.run.cpu_s)).toFixed(2))
      : undefined;
    return {
      repositories,
      latency_ms: latencyMs,
      concurrency: CONCURRENCY,
      ...(runs > 1 ? { runs } : {}),
      wall_s: wall,
      requests: counts.requests,
      resources,
      ideal_s: (counts.requests * latencyMs) / 1000 / CONCURRENCY,
      ...(floor !== undefined
        ? {
            floor_s: floor,
            ratio_to_floor: Number(
              median(measured.map((one) => one.run.wall_s / one.floor)).toFixed(2),
            ),
          }
        : {}),
      peak_rss_mb: Math.max(...measured.map((one) => one.run.peak_rss_mb)),
      rate_limited_responses: measured.reduce(
        (sum, one) => sum + one.counts.rate_limited_responses,
        0,
      ),
      waits_announced: measured.reduce(
        (sum, one) =>
          sum + one.run.stderr.split("\n").filter((line) => line.includes("waiting for")).length,
        0,
      ),
      ...(cpu !== undefined ? { forgeplan_cpu_s: cpu } : {}),
      ...(measured.every((one) => !Number.isNaN(one.sandboxCpu))
        ? { sandbox_cpu_s: median(measured.map((one) => one.sandboxCpu)) }
        : {}),
    };
  } finally {
    await sandbox.stop();
    dir.remove();
  }
}

/** The App the App scenarios sign in as, installed on `acme` (every repository, generated ones too). */
export const BENCH_APP_ID = 4242;

/**
 * Writes a seed file (the demo world plus App 4242 with a fresh public key, installed on `acme`
 * with administration and webhooks write) and the App's private key into `dir`, and returns the
 * config header of a `github` target that signs in as that App.
 */
export async function appWorld(dir) {
  const { generateKeyPairSync } = await import("node:crypto");
  const { stringify } = await import("yaml");
  const { demoWorld } = await import(join(ROOT, "dist", "sandbox", "index.js"));
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
  });
  const seed = {
    ...demoWorld,
    apps: [
      ...demoWorld.apps,
      {
        id: BENCH_APP_ID,
        slug: "settings-bot",
        name: "Settings Bot",
        owner: "acme",
        public_key: publicKey,
        installations: [
          {
            id: 77,
            account: "acme",
            permissions: { administration: "write", repository_hooks: "write" },
          },
        ],
      },
    ],
  };
  const seedFile = join(dir, "world.yaml");
  writeFileSync(seedFile, stringify(seed));
  const keyFile = join(dir, "app.pem");
  writeFileSync(keyFile, privateKey, { mode: 0o600 });
  const targets = [
    "targets:",
    `  github: { type: repository, app_id: ${BENCH_APP_ID}, private_key_file: app.pem }`,
  ].join("\n");
  return { seedFile, keyFile, privateKey, targets };
}

/**
 * A token of installation 77 minted with the App's JWT outside forgeplan, as a workflow's
 * `actions/create-github-app-token` step mints one: `GET /user` refuses it.
 */
export async function mintInstallationToken(url, privateKey) {
  const { createSign } = await import("node:crypto");
  const { Buffer } = await import("node:buffer");
  const now = Math.floor(Date.now() / 1000);
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${encode({ alg: "RS256", typ: "JWT" })}.${encode({ iat: now - 60, exp: now + 540, iss: BENCH_APP_ID })}`;
  const signature = createSign("sha256").update(unsigned).sign(privateKey).toString("base64url");
  const minted = await fetch(`${url}/app/installations/77/access_tokens`, {
    method: "POST",
    headers: { Authorization: `Bearer ${unsigned}.${signature}` },
  });
  if (minted.status !== 201) throw new Error(`minting a token answered ${minted.status}`);
  return (await minted.json()).token;
}

/**
 * The installation's core budget used so far, read the way forgeplan reads it: `GET /rate_limit`
 * (free) with an installation token this scenario mints with the App's JWT.
 */
export async function installationCoreUsed(url, privateKey) {
  const token = await mintInstallationToken(url, privateKey);
  const overview = await fetch(`${url}/rate_limit`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return (await overview.json()).resources.core.used;
}
