import { isAbsolute, join } from "node:path";
import {
  CATEGORIES,
  GITLAB_OFFERINGS,
  GITLAB_TIERS,
  type GitlabOffering,
  type GitlabTier,
  isGitlabOffering,
  SeedError,
  type SandboxOptions,
  startSandbox,
} from "../sandbox/index.js";
import { parseCount, parseFlags } from "./args.js";
import { CliError, type Command, type CommandIO } from "./io.js";

export const flags = {
  port: { type: "string" },
  seed: { type: "string" },
  generate: { type: "string" },
  "generate-profile": { type: "string" },
  latency: { type: "string" },
  "fail-rate": { type: "string" },
  "fault-seed": { type: "string" },
  "rate-limit": { type: "string" },
  "rate-window": { type: "string" },
  "secondary-limit": { type: "string" },
  "cpu-limit": { type: "string" },
  "token-ttl": { type: "string" },
  "graphql-limit": { type: "string" },
  "graphql-timeout-ms": { type: "string" },
  "generate-projects": { type: "string" },
  "generate-project-groups": { type: "string" },
  "gitlab-tier": { type: "string" },
  "gitlab-com-limits": { type: "boolean" },
  "gitlab-offering": { type: "string" },
  "gitlab-member-delay": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export const help = `usage: forgeplan sandbox [options]

Runs the local emulator of the service on 127.0.0.1 until interrupted.

options:
  --port N               port to listen on (default 0: any free port)
  --seed FILE            YAML seed file (default: the demo world)
  --generate N           add repositories acme/repo-0001 … acme/repo-N
  --generate-profile P   basic (default: branches, hooks) or full (also protections of main and
                         dev, a collaborator, two teams and a ruleset in every repository; a
                         protected main, a member, a CI/CD variable, two labels and a webhook in
                         every project)
  --latency MS           delay every answer by MS milliseconds
  --fail-rate P          answer a share P (0..1) of requests with 502/503 or a secondary-limit 403
  --fault-seed N         seed of the fault choice, for reproducible runs (default 1)
  --rate-limit CAT=N,…   requests per window for rate-limit categories, e.g. core=40
  --rate-window SECONDS  length of every rate-limit window
  --secondary-limit N    secondary limit: points a minute per endpoint and token (default 900;
                         a read costs 1, a write 5)
  --cpu-limit SECONDS    secondary limit on CPU time: seconds of response time a token's requests
                         may take in a minute (GitHub's is 90; default none)
  --token-ttl SECONDS    lifetime of GitHub App installation tokens (default 3600)
  --graphql-limit N      secondary limit of POST /graphql: points a minute and token (default
                         2000; a query costs 1)
  --graphql-timeout-ms MS  answer 502 to a GraphQL query that takes longer than MS, modelled as a
                         millisecond per object in its answer (default: no ceiling)
  --generate-projects N  add GitLab projects acme/project-00001 … acme/project-N
  --generate-project-groups G  spread them over G subgroups acme/team-001 … (default: in acme)
  --gitlab-tier T        the GitLab tier of /api/v4: free, premium or ultimate (default); on a
                         lower tier, Premium and Ultimate endpoints answer 403 as GitLab's do
  --gitlab-com-limits    enforce GitLab.com's per-endpoint limits on /api/v4 per user (GET
                         /api/v4/projects/:id 400 a minute, members lists 200 …; default off)
  --gitlab-offering O    answer as GitLab.com (com) or a self-managed instance (self-managed,
                         the default) where they differ: custom roles are a top-level group's
                         on GitLab.com, the instance's on a self-managed one
  --gitlab-member-delay MS  a user added as a member may be named in a protection only MS
                         milliseconds later (GitLab's "user is not a member" meanwhile; default 0)
  -h, --help             this text
`;

function parseFailRate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const rate = Number(value);
  if (value.trim() === "" || !(rate >= 0 && rate <= 1)) {
    throw new CliError(`sandbox: --fail-rate expects a number from 0 to 1, got '${value}'`);
  }
  return rate;
}

function parseProfile(value: string | undefined): "basic" | "full" | undefined {
  if (value === undefined || value === "basic" || value === "full") return value;
  throw new CliError(`sandbox: --generate-profile must be basic or full, got '${value}'`);
}

function parseTier(value: string | undefined): GitlabTier | undefined {
  if (value === undefined) return undefined;
  if ((GITLAB_TIERS as readonly string[]).includes(value)) return value as GitlabTier;
  throw new CliError(
    `sandbox: --gitlab-tier must be one of ${GITLAB_TIERS.join(", ")}, got '${value}'`,
  );
}

function parseOffering(value: string | undefined): GitlabOffering | undefined {
  if (value === undefined) return undefined;
  if (isGitlabOffering(value)) return value;
  throw new CliError(
    `sandbox: --gitlab-offering must be one of ${GITLAB_OFFERINGS.join(", ")}, got '${value}'`,
  );
}

function parseRateLimits(value: string | undefined): Record<string, number> | undefined {
  if (value === undefined) return undefined;
  const limits: Record<string, number> = {};
  for (const entry of value.split(",")) {
    const match = /^\s*([a-z_]+)\s*=\s*(\d+)\s*$/.exec(entry);
    if (!match?.[1] || !match[2]) {
      throw new CliError(`sandbox: --rate-limit expects CATEGORY=N[,…], got '${entry}'`);
    }
    if (!(CATEGORIES as readonly string[]).includes(match[1])) {
      throw new CliError(
        `sandbox: --rate-limit: unknown category '${match[1]}' (categories: ${CATEGORIES.join(", ")})`,
      );
    }
    limits[match[1]] = Number(match[2]);
  }
  return limits;
}

function positive(flag: string, value: string | undefined): number | undefined {
  const number = parseCount("sandbox", flag, value);
  if (number === 0) throw new CliError(`sandbox: --${flag} must be at least 1`);
  return number;
}

/**
 * Whether npm started the command (`npx forgeplan sandbox`, an npm script): npm runs it under a
 * shell of its own, and a kill of npm's PID — the one a backgrounded `npx … &` reports — stops npm
 * and its shell but not the sandbox, which would go on listening, orphaned.
 */
function launchedByNpm(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.npm_command !== undefined || env.npm_lifecycle_event !== undefined;
}

/**
 * Resolves `gone` when the process that started this one ends (it is then re-parented), checked
 * every half second, so a sandbox npm started stops with npm.
 */
function watchLauncher(): { parent: number; gone: Promise<void>; stop(): void } {
  const parent = process.ppid;
  let timer: NodeJS.Timeout | undefined;
  const gone = new Promise<void>((resolve) => {
    timer = setInterval(() => {
      if (process.ppid !== parent) resolve();
    }, 500);
    timer.unref();
  });
  return { parent, gone, stop: () => clearInterval(timer) };
}

export const sandbox: Command = async (argv, io) => {
  const { values } = parseFlags("sandbox", argv, flags);
  if (values.help) {
    io.stdout.write(help);
    return 0;
  }
  const port = parseCount("sandbox", "port", values.port);
  if (port !== undefined && port > 65535) {
    throw new CliError(`sandbox: --port must be at most 65535, got ${port}`);
  }
  const options: SandboxOptions = {
    port,
    seed:
      values.seed === undefined || isAbsolute(values.seed)
        ? values.seed
        : join(io.cwd, values.seed),
    generate: parseCount("sandbox", "generate", values.generate),
    generateProfile: parseProfile(values["generate-profile"]),
    latencyMs: parseCount("sandbox", "latency", values.latency),
    failRate: parseFailRate(values["fail-rate"]),
    faultSeed: parseCount("sandbox", "fault-seed", values["fault-seed"]),
    rateLimits: parseRateLimits(values["rate-limit"]),
    rateWindowSeconds: positive("rate-window", values["rate-window"]),
    secondaryPointsPerMinute: positive("secondary-limit", values["secondary-limit"]),
    cpuLimitSeconds: positive("cpu-limit", values["cpu-limit"]),
    tokenTtlSeconds: positive("token-ttl", values["token-ttl"]),
    graphqlPointsPerMinute: positive("graphql-limit", values["graphql-limit"]),
    graphqlTimeoutMs: positive("graphql-timeout-ms", values["graphql-timeout-ms"]),
    generateProjects: parseCount("sandbox", "generate-projects", values["generate-projects"]),
    generateProjectGroups: positive("generate-project-groups", values["generate-project-groups"]),
    gitlabTier: parseTier(values["gitlab-tier"]),
    gitlabComLimits: values["gitlab-com-limits"],
    gitlabOffering: parseOffering(values["gitlab-offering"]),
    gitlabMemberDelayMs: parseCount(
      "sandbox",
      "gitlab-member-delay",
      values["gitlab-member-delay"],
    ),
  };

  // Which process started this one is read now, before the pid is printed: read after, a launcher
  // killed as soon as it shows the pid (the suite's test did, on a busy machine) has already
  // handed this process to init, and the change would never be seen.
  const launcher = launchedByNpm(io.env) ? watchLauncher() : undefined;
  try {
    return await serve(options, values.seed, port, io, launcher);
  } finally {
    launcher?.stop();
  }
};

/** Starts the sandbox, says where and under which pid, and serves until stopped or orphaned. */
async function serve(
  options: SandboxOptions,
  seed: string | undefined,
  port: number | undefined,
  io: CommandIO,
  launcher: ReturnType<typeof watchLauncher> | undefined,
): Promise<number> {
  let running;
  try {
    running = await startSandbox(options);
  } catch (error) {
    if (error instanceof SeedError) {
      // Name the file as the user wrote it, not the resolved path.
      const shown = seed ?? "seed";
      throw new CliError(`sandbox: ${error.message.replace(options.seed ?? "", shown)}`);
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new CliError(`sandbox: port ${port} is already in use`);
    if (code === "EACCES") throw new CliError(`sandbox: not allowed to listen on port ${port}`);
    throw error;
  }
  io.stdout.write(`forgeplan sandbox listening on ${running.url}\n`);
  io.stdout.write(`pid ${process.pid}: stop it with Ctrl-C or kill ${process.pid}\n`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener("abort", () => resolve(), { once: true });
    void launcher?.gone.then(() => {
      io.stderr.write(
        `forgeplan: sandbox: the process that started it (pid ${launcher.parent}) ended; stopping\n`,
      );
      resolve();
    });
  });
  await running.stop();
  io.stdout.write(`forgeplan sandbox stopped after ${running.stats().requests_total} requests\n`);
  return 0;
}
