import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { demoWorld } from "./seed/demo-world.js";
import { FaultInjector } from "./core/faults.js";
import {
  type GeneratedProfile,
  withGeneratedProjects,
  withGeneratedRepositories,
} from "./seed/generate.js";
import {
  type Category,
  CATEGORIES,
  GRAPHQL_POINTS_PER_MINUTE,
  isCategory,
  RateLimiter,
  SecondaryLimiter,
} from "./core/rate-limits.js";
import { ResponseTimeLimiter } from "./core/response-time.js";
import { githubService } from "./github/index.js";
import { gitlabService } from "./gitlab/index.js";
import {
  GITLAB_OFFERINGS,
  GITLAB_TIERS,
  type GitlabOffering,
  type GitlabTier,
  isGitlabOffering,
  isGitlabTier,
} from "./gitlab/tiers.js";
import { sealingReady } from "./github/actions/sealed-box.js";
import { checkSeed, type LoadedSeed, readSeedFile, worldFromSeed } from "./seed/file.js";
import { createRequestHandler, type RecordedRequest } from "./core/server.js";
import { emptyStats, type SandboxStats } from "./core/stats.js";

export type { SandboxStats } from "./core/stats.js";
export type { RecordedRequest } from "./core/server.js";
export { checkedOperations, requestViolations } from "./github/request-rules.js";
export { gitlabRequestViolations } from "./gitlab/request-parameters.js";
export { CATEGORIES, type Category } from "./core/rate-limits.js";
export { SeedError } from "./seed/file.js";
export {
  GITLAB_OFFERINGS,
  GITLAB_TIERS,
  type GitlabOffering,
  type GitlabTier,
  isGitlabOffering,
} from "./gitlab/tiers.js";
export { demoWorld } from "./seed/demo-world.js";

export interface SandboxOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Path of a YAML seed file; default: the demo world. */
  seed?: string;
  /** Adds acme/repo-0001 … acme/repo-N. */
  generate?: number;
  /**
   * What the generated repositories and projects hold (default `basic`; `full`: protections,
   * access, a ruleset; a project's protected main, a member, a CI/CD variable, two labels and a
   * webhook).
   */
  generateProfile?: GeneratedProfile;
  /** Adds GitLab projects acme/project-00001 … acme/project-N (ids after the seed's). */
  generateProjects?: number;
  /** Spreads the generated projects over this many subgroups `acme/team-001` … (default: acme). */
  generateProjectGroups?: number;
  latencyMs?: number;
  /** Share (0..1) of requests answered 502/503 or with a secondary-limit 403. */
  failRate?: number;
  faultSeed?: number;
  /** Category → requests per window, e.g. { core: 40 }. */
  rateLimits?: Record<string, number>;
  /** Window of every category; default: GitHub's (an hour; a minute for the search categories). */
  rateWindowSeconds?: number;
  /** Secondary limit: requests in flight per token (default 100). */
  maxConcurrentPerToken?: number;
  /** Secondary limit: points per minute per endpoint and token (default 900; writes cost 5, reads 1). */
  secondaryPointsPerMinute?: number;
  /**
   * Secondary limit of the GraphQL endpoint: points per minute and token (default 2,000, GitHub's;
   * a query costs 1).
   */
  graphqlPointsPerMinute?: number;
  /**
   * Response-time ceiling of `POST /graphql`, in modelled milliseconds (a millisecond per object in
   * the answer): a query over it is answered 502, as GitHub answers a query it cannot finish in
   * 10 s. Default: none.
   */
  graphqlTimeoutMs?: number;
  /**
   * Secondary limit on CPU time: seconds of response time a token's requests may take in a minute
   * (GitHub's is 90); default none.
   */
  cpuLimitSeconds?: number;
  /** Lifetime of installation access tokens, in seconds (default 3600, GitHub's hour). */
  tokenTtlSeconds?: number;
  /**
   * The GitLab tier the planning paths run as (default `ultimate`): on a lower one, endpoints of a
   * higher tier answer as GitLab answers them there (epics are Premium, related epics Ultimate:
   * 403).
   */
  gitlabTier?: GitlabTier;
  /**
   * Enforce GitLab.com's per-endpoint limits on the planning paths, per user (`GET
   * /api/v4/projects/:id` 400 a minute, a project's members list 200 a minute …), answering 429
   * without rate-limit headers as GitLab.com does. Default off.
   */
  gitlabComLimits?: boolean;
  /**
   * Whether the planning paths answer as GitLab.com or as a self-managed instance (default
   * `self-managed`): custom roles are a top-level group's on GitLab.com, the instance's otherwise.
   */
  gitlabOffering?: GitlabOffering;
  /**
   * Milliseconds after a user becomes a member of a project or group during which a protection
   * may not name them yet: GitLab answers as for a user who is not a member (#40, item 4). Default 0.
   */
  gitlabMemberDelayMs?: number;
  /** Millisecond clock, injectable for tests of reset windows. */
  now?: () => number;
  /**
   * Called with every request's method, path and body as it arrives (before limits and faults), so
   * a test can check what a client sent, e.g. with `requestViolations`. Bodies may hold secrets.
   */
  onRequest?: (request: RecordedRequest) => void;
}

export interface RunningSandbox {
  url: string;
  port: number;
  stats(): SandboxStats;
  stop(): Promise<void>;
}

function checkOptions(options: SandboxOptions): Partial<Record<Category, number>> {
  const fail = (message: string) => {
    throw new RangeError(`sandbox: ${message}`);
  };
  const rate = options.failRate ?? 0;
  if (!(rate >= 0 && rate <= 1)) fail(`failRate must be between 0 and 1, got ${rate}`);
  const limits: Partial<Record<Category, number>> = {};
  for (const [category, limit] of Object.entries(options.rateLimits ?? {})) {
    if (!isCategory(category)) {
      fail(`unknown rate-limit category '${category}' (known: ${CATEGORIES.join(", ")})`);
    } else if (!Number.isInteger(limit) || limit < 0) {
      fail(`rate limit of ${category} must be a whole number, got ${limit}`);
    } else limits[category] = limit;
  }
  const ttl = options.tokenTtlSeconds;
  if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0)) {
    fail(`tokenTtlSeconds must be a positive whole number, got ${ttl}`);
  }
  const ceiling = options.graphqlTimeoutMs;
  if (ceiling !== undefined && !(Number.isInteger(ceiling) && ceiling > 0)) {
    fail(`graphqlTimeoutMs must be a positive whole number, got ${ceiling}`);
  }
  const cpu = options.cpuLimitSeconds;
  if (cpu !== undefined && !(Number.isFinite(cpu) && cpu > 0)) {
    fail(`cpuLimitSeconds must be a positive number, got ${cpu}`);
  }
  const tier = options.gitlabTier;
  if (tier !== undefined && !isGitlabTier(tier)) {
    fail(`gitlabTier must be one of ${GITLAB_TIERS.join(", ")}, got '${String(tier)}'`);
  }
  const offering = options.gitlabOffering;
  if (offering !== undefined && !isGitlabOffering(offering)) {
    fail(`gitlabOffering must be one of ${GITLAB_OFFERINGS.join(", ")}, got '${String(offering)}'`);
  }
  const window = options.rateWindowSeconds;
  if (window !== undefined && !(Number.isInteger(window) && window > 0)) {
    fail(`rateWindowSeconds must be a positive whole number, got ${window}`);
  }
  return limits;
}

/**
 * Checked seeds by what they were made from (the demo world, or a seed file's text) and the
 * repositories generated into them. Checking a seed is pure and costs more than building a world
 * from it, and test suites start a sandbox per run (test/kinds/harness.ts). Every world is built
 * from its own copy of the seed, so no sandbox sees what another's world did to its records.
 */
const checkedSeeds = new Map<string, LoadedSeed>();

function checkedSeed(options: SandboxOptions): LoadedSeed {
  const file = options.seed;
  // A seed file's errors name the file, so its path is part of the key as well as its text.
  const source = file === undefined ? ["demo world"] : [file, seedText(file)];
  const key = JSON.stringify([
    ...source,
    options.generate ?? 0,
    options.generateProfile ?? null,
    options.generateProjects ?? 0,
    options.generateProjectGroups ?? 1,
  ]);
  let checked = checkedSeeds.get(key);
  if (checked === undefined) {
    const loaded =
      file === undefined ? checkSeed(demoWorld, () => "demo world") : readSeedFile(file);
    const seed = withGeneratedProjects(
      withGeneratedRepositories(loaded.seed, options.generate ?? 0, options.generateProfile),
      options.generateProjects ?? 0,
      { groups: options.generateProjectGroups ?? 1, profile: options.generateProfile ?? "basic" },
    );
    checked = { seed, locate: loaded.locate };
    checkedSeeds.set(key, checked);
  }
  return { seed: structuredClone(checked.seed), locate: checked.locate };
}

/** A seed file's text; the SeedError that names the file when it cannot be read. */
function seedText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    // Unreadable: readSeedFile throws the SeedError that names the file and why.
    readSeedFile(file);
    throw new Error(`sandbox: ${file} cannot be read`);
  }
}

/** Starts a sandbox on loopback HTTP; resolves once it listens. Throws SeedError for a bad seed. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const limits = checkOptions(options);
  // Secrets are sealed with libsodium, which must be loaded before a handler opens one.
  await sealingReady;
  const worlds = worldFromSeed(checkedSeed(options));
  const now = options.now ?? Date.now;
  const host = options.host ?? "127.0.0.1";
  const stats = emptyStats();
  let base = "";
  const server = createServer(
    { keepAlive: true },
    createRequestHandler({
      families: [
        gitlabService(worlds.gitlab, {
          tier: options.gitlabTier ?? "ultimate",
          comLimits: options.gitlabComLimits ?? false,
          offering: options.gitlabOffering ?? "self-managed",
          memberDelayMs: options.gitlabMemberDelayMs ?? 0,
          now,
        }),
        githubService(worlds.github, {
          tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
          stats,
          graphqlTimeoutMs: options.graphqlTimeoutMs,
        }),
      ],
      limiter: new RateLimiter(limits, options.rateWindowSeconds, now),
      secondary: new SecondaryLimiter(
        {
          maxConcurrent: options.maxConcurrentPerToken ?? 100,
          pointsPerMinute: options.secondaryPointsPerMinute ?? 900,
          graphqlPointsPerMinute: options.graphqlPointsPerMinute ?? GRAPHQL_POINTS_PER_MINUTE,
        },
        now,
      ),
      ...(options.cpuLimitSeconds !== undefined
        ? { responseTime: new ResponseTimeLimiter(options.cpuLimitSeconds * 1000, now) }
        : {}),
      faults: new FaultInjector(options.failRate ?? 0, options.faultSeed ?? 1),
      latencyMs: options.latencyMs ?? 0,
      now,
      stats,
      base: () => base,
      ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url: base,
    port,
    stats: () => structuredClone(stats),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
