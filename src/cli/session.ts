import { setMaxListeners } from "node:events";
import { resolve } from "node:path";
import { formatConfigError } from "../config/index.js";
import type { DesiredState } from "../config/model.js";
import type { Secret } from "../core/secret.js";
import { thousands } from "../core/thousands.js";
import { loadDesiredState } from "../engine/desired.js";
import { collectSecrets } from "../engine/secrets.js";
import { CONTENT_CREATION } from "../forge/limits.js";
import {
  CLIENT_DEFAULTS,
  type ClientEvent,
  type ConditionalCache,
  DirectoryCache,
  type ForgeClient,
  type ForgeClientOptions,
} from "../forge/client.js";
import { type Connection, connect } from "../library/connect.js";
import { ConnectionError } from "../library/credentials.js";
import type { ResourceReader } from "../resources/context.js";
import { parseCount } from "./args.js";
import { parseDuration } from "./duration.js";
import { CliError, type CliIO } from "./io.js";
import { clockTime } from "./progress.js";

export const connectionFlags = {
  config: { type: "string", short: "c", multiple: true },
  sandbox: { type: "boolean" },
  "sandbox-url": { type: "string" },
  concurrency: { type: "string" },
  "write-interval": { type: "string" },
  "points-per-minute": { type: "string" },
  "cpu-limit": { type: "string" },
  "max-pages": { type: "string" },
  "max-wait": { type: "string" },
  cache: { type: "string" },
} as const;

/** The connection flags of a command that only reads (export, migrate): no writes to space. */
const { "write-interval": _writeInterval, ...readingFlags } = connectionFlags;
export const readOnlyFlags = readingFlags;

/** How `--help` describes each of `connectionFlags`, in their order. */
const CONNECTION_HELP: ReadonlyArray<readonly [keyof typeof connectionFlags, string]> = [
  [
    "config",
    "  -c, --config FILE|DIR    desired state (repeatable; default forgeplan.yaml; - reads stdin)",
  ],
  [
    "sandbox",
    "  --sandbox                start an embedded sandbox with the demo world and run against it",
  ],
  ["sandbox-url", "  --sandbox-url URL        run against a running sandbox (forgeplan sandbox)"],
  ["concurrency", "  --concurrency N          concurrent reads (default 8, at most 100)"],
  [
    "write-interval",
    "  --write-interval MS      spacing between mutating requests (default 1000; 0 against a sandbox)",
  ],
  [
    "points-per-minute",
    "  --points-per-minute N    the secondary limit each endpoint is paced to (default 900; a read\n" +
      "                           costs 1 point, a write 5)",
  ],
  [
    "cpu-limit",
    "  --cpu-limit SECONDS      the response time a minute the token's requests are paced to (GitHub's\n" +
      "                           CPU-time limit; default 90 with a fifth kept in reserve; none against\n" +
      "                           a sandbox)",
  ],
  ["max-pages", "  --max-pages N            most pages read of one listing (default 1000)"],
  [
    "max-wait",
    "  --max-wait DURATION      longest any request waits for rate limits (90s, 15m, 1h30m; default 15m)",
  ],
  [
    "cache",
    "  --cache DIR              keep the conditional-request cache (ETags and bodies) in DIR between runs",
  ],
];

/** The `--help` lines of the connection flags, but those a command describes its own way. */
export function connectionHelp(except: ReadonlyArray<keyof typeof connectionFlags> = []): string {
  return CONNECTION_HELP.filter(([flag]) => !except.includes(flag))
    .map(([, line]) => `${line}\n`)
    .join("");
}

export interface ConnectionFlags {
  config?: string[];
  sandbox?: boolean;
  "sandbox-url"?: string;
  concurrency?: string;
  "write-interval"?: string;
  "points-per-minute"?: string;
  "cpu-limit"?: string;
  "max-pages"?: string;
  "max-wait"?: string;
  cache?: string;
  /** drift's --refresh: read everything in full, rewriting the cache. */
  refresh?: boolean;
}

export interface Session {
  state: DesiredState;
  clients: Map<string, ForgeClient>;
  readers: Map<string, ResourceReader>;
  /** Secret objects of the desired state by their source, for resolving planned bodies at apply. */
  secrets: Map<string, Secret>;
  /** Also hands every client event to `listener` (progress), besides the wait lines on stderr. */
  onEvent(listener: (event: ClientEvent) => void): void;
  close(): Promise<void>;
}

/** The configuration files a command reads: every -c given, or forgeplan.yaml. */
export function configPaths(flags: ConnectionFlags): string[] {
  return flags.config?.length ? flags.config : ["forgeplan.yaml"];
}

/** Loads the desired state or ends the command with every positioned error on stderr. */
export function loadState(
  command: string,
  flags: ConnectionFlags,
  io: CliIO,
  readFile?: (path: string) => string,
): DesiredState {
  const result = loadDesiredState(configPaths(flags), {
    cwd: io.cwd,
    env: io.env,
    ...(readFile ? { readFile } : {}),
    ...(io.redactor ? { redactor: io.redactor } : {}),
  });
  if (result.ok) return result.state;
  for (const error of result.errors) io.stderr.write(`${formatConfigError(error)}\n`);
  const count = result.problems;
  throw new CliError(
    `${command}: the configuration has ${thousands(count)} error${count === 1 ? "" : "s"}; nothing was read or changed`,
  );
}

/**
 * A visible line for every wait that holds requests, so a paced run never looks hung. A wait after
 * a throttling answer says which request was throttled, how long forgeplan waits and why that long.
 */
export function reportEvent(io: CliIO, event: ClientEvent): void {
  if (event.type !== "wait") return;
  const until = `until ${clockTime(event.until)} UTC`;
  const { after } = event;
  // A secondary limit is counted per endpoint: its line always names the endpoint first.
  if (event.reason === "cpu-time" || event.reason === "content-creation") {
    const limit =
      event.reason === "cpu-time"
        ? `CPU time${event.category === "graphql" ? " (GraphQL)" : ""}: waiting ${until}, keeping the response time of a minute's requests within the limit (--cpu-limit)`
        : `content creation: waiting ${until}, at most ${CONTENT_CREATION.perMinute} content-creating requests a minute and ${CONTENT_CREATION.perHour} an hour`;
    io.stderr.write(`forgeplan: secondary rate limit on ${limit}\n`);
    return;
  }
  if (event.reason === "endpoint-limit") {
    io.stderr.write(
      `forgeplan: GitLab.com's limit on ${event.category}: waiting ${until}, pacing its requests to the limit (a target's limits)\n`,
    );
    return;
  }
  if (event.reason === "secondary-limit") {
    const answer =
      after === undefined
        ? `waiting ${until}, pacing the endpoint to its points a minute (--points-per-minute)`
        : `${after.request} answered ${after.status}; waiting ${Math.ceil(after.waitMs / 1000)} s ${until}, ${waitSource(after.source)}`;
    io.stderr.write(
      `forgeplan: secondary rate limit on ${event.endpoint ?? event.category}: ${answer}\n`,
    );
    return;
  }
  if (after === undefined) {
    io.stderr.write(
      `forgeplan: waiting for ${event.reason === "rate-limit-reset" ? "rate-limit reset" : event.reason} ` +
        `(${event.category}) ${until}\n`,
    );
    return;
  }
  const what =
    event.reason === "rate-limit-reset" ? `rate limit (${event.category}) exhausted` : "throttled";
  io.stderr.write(
    `forgeplan: ${what} on ${after.request} (${after.status}): waiting ${Math.ceil(after.waitMs / 1000)} s ${until}, ${waitSource(after.source)}\n`,
  );
}

/** Who chose how long a wait after a throttling answer is. */
function waitSource(source: "retry-after" | "reset" | "backoff"): string {
  return source === "backoff"
    ? "forgeplan's own back-off, as the answer said not how long"
    : source === "reset"
      ? "the reset the service reported"
      : "as the service's Retry-After asks";
}

/**
 * Connects every target the desired state uses: to the real service with the token from the target's
 * environment variable, or to a sandbox (embedded with --sandbox, running with --sandbox-url).
 */
export async function openSession(
  command: string,
  flags: ConnectionFlags,
  io: CliIO,
  state: DesiredState,
  /** Targets to connect even if no entry uses them (export names what it reads on the command line). */
  alsoUse: readonly string[] = [],
  /** A shard's share of the token's limits. */
  clientOptions: Pick<ForgeClientOptions, "shareOfBudget"> = {},
): Promise<Session> {
  let sandboxUrl = flags["sandbox-url"];
  let stopSandbox: (() => Promise<void>) | undefined;
  if (flags.sandbox && sandboxUrl) {
    throw new CliError(`${command}: use either --sandbox or --sandbox-url, not both`);
  }
  if (sandboxUrl !== undefined && !/^https?:\/\/[^/]+/.test(sandboxUrl)) {
    throw new CliError(`${command}: --sandbox-url expects an http(s) URL, got '${sandboxUrl}'`);
  }
  if (flags.sandbox) {
    const { startSandbox } = await import("../sandbox/index.js");
    const sandbox = await startSandbox({ port: 0 });
    sandboxUrl = sandbox.url;
    stopSandbox = () => sandbox.stop();
  }
  const concurrency =
    parseCount(command, "concurrency", flags.concurrency) ?? CLIENT_DEFAULTS.concurrency;
  if (concurrency < 1 || concurrency > 100) {
    throw new CliError(`${command}: --concurrency must be between 1 and 100, got ${concurrency}`);
  }
  const writeIntervalMs = parseCount(command, "write-interval", flags["write-interval"]);
  const pointsPerMinute = parseCount(command, "points-per-minute", flags["points-per-minute"]);
  if (pointsPerMinute === 0) {
    throw new CliError(`${command}: --points-per-minute must be at least 1`);
  }
  const cpuSeconds = parseCount(command, "cpu-limit", flags["cpu-limit"]);
  if (cpuSeconds === 0) throw new CliError(`${command}: --cpu-limit must be at least 1`);
  const maxPages = parseCount(command, "max-pages", flags["max-pages"]);
  if (maxPages === 0) throw new CliError(`${command}: --max-pages must be at least 1`);
  const maxWaitMs =
    parseDuration(command, "max-wait", flags["max-wait"]) ?? CLIENT_DEFAULTS.maxWaitMs;
  const cache =
    flags.cache !== undefined
      ? openCache(command, io, flags.cache, flags.refresh === true)
      : undefined;
  const listeners: Array<(event: ClientEvent) => void> = [];
  const signal = sessionSignal(io.signal);
  let connection: Connection;
  try {
    connection = await connect(
      state,
      {
        ...(sandboxUrl === undefined ? {} : { sandboxUrl }),
        concurrency,
        ...(writeIntervalMs === undefined ? {} : { writeIntervalMs }),
        ...(pointsPerMinute === undefined ? {} : { pointsPerMinute }),
        ...(cpuSeconds === undefined ? {} : { cpuTimeLimitMs: cpuSeconds * 1000 }),
        ...(maxPages === undefined ? {} : { maxPages }),
        maxWaitMs,
        ...(cache ? { cache } : {}),
        signal,
        onEvent: (event) => {
          reportEvent(io, event);
          for (const listener of listeners) listener(event);
        },
        alsoUse,
        ...clientOptions,
      },
      { cwd: io.cwd, ...(io.redactor ? { redactor: io.redactor } : {}) },
    );
  } catch (error) {
    await stopSandbox?.();
    if (!(error instanceof ConnectionError)) throw error;
    throw new CliError(`${command}: ${error.message}${connectionHint(error)}`);
  }
  const { clients, readers } = connection;
  return {
    state,
    clients,
    readers,
    secrets: collectSecrets(state),
    onEvent: (listener) => {
      listeners.push(listener);
    },
    close: async () => {
      await stopSandbox?.();
    },
  };
}

/**
 * The stop signal the clients listen to. Every request waiting for its turn listens to it, and a
 * large apply has hundreds waiting at once: that is expected, not a leak, so Node's warning is off.
 */
function sessionSignal(parent: AbortSignal): AbortSignal {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener("abort", () => controller.abort(parent.reason), { once: true });
  return controller.signal;
}

/**
 * The conditional-request cache kept between runs (--cache DIR); entries are keyed by who the
 * credential acts as (an App installation, a user), never the token, hold no sensitive value in
 * plain text (the redactor seals them), and entries unused for 30 days are dropped as it opens.
 * Refreshing reads nothing from it but still writes to it: a full read that rewrites every entry.
 */
function openCache(command: string, io: CliIO, dir: string, refresh: boolean): ConditionalCache {
  let cache: DirectoryCache;
  try {
    cache = new DirectoryCache(resolve(io.cwd, dir), {
      ...(io.redactor ? { redactor: io.redactor } : {}),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`${command}: cannot use --cache ${dir}: ${reason}`);
  }
  return refresh ? { get: () => undefined, set: (key, entry) => cache.set(key, entry) } : cache;
}

/** What to do about a target that cannot be connected, when the CLI knows better than the library. */
function connectionHint(error: ConnectionError): string {
  if (error.missingToken) return " (or run against the sandbox with --sandbox)";
  if (error.sandbox) return "; start one with 'npx forgeplan sandbox --port N', or use --sandbox";
  return "";
}
