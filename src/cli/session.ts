import { setMaxListeners } from "node:events";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { formatConfigError } from "../config/index.js";
import type { DesiredState, TargetConfig } from "../config/model.js";
import { isPlainObject } from "../core/plain.js";
import { isSecret, Secret } from "../core/secret.js";
import { loadDesiredState } from "../engine/desired.js";
import {
  CLIENT_DEFAULTS,
  type ClientEvent,
  type ConditionalCache,
  DirectoryCache,
  ForgeClient,
  type ForgeClientOptions,
  systemClock,
  ForgeError,
} from "../forge/client.js";
import { AppInstallationAuth } from "../forge/app-auth.js";
import { appPrivateKey } from "../forge/app-jwt.js";
import { createAppRequest } from "../forge/app-request.js";
import type { AuthProvider } from "../forge/auth.js";
import { ResourceReader } from "../resources/context.js";
import { parseCount } from "./args.js";
import { parseDuration } from "./duration.js";
import { CliError, type CliIO } from "./io.js";
import { clockTime } from "./progress.js";

/** The demo world's admin token: the sandbox is a local emulator, so this is not a secret. */
const SANDBOX_ADMIN_TOKEN = "sandbox-admin";

export const connectionFlags = {
  config: { type: "string", short: "c", multiple: true },
  sandbox: { type: "boolean" },
  "sandbox-url": { type: "string" },
  concurrency: { type: "string" },
  "write-interval": { type: "string" },
  "points-per-minute": { type: "string" },
  "max-wait": { type: "string" },
  cache: { type: "string" },
} as const;

export interface ConnectionFlags {
  config?: string[];
  sandbox?: boolean;
  "sandbox-url"?: string;
  concurrency?: string;
  "write-interval"?: string;
  "points-per-minute"?: string;
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
  const count = result.errors.length;
  throw new CliError(
    `${command}: the configuration has ${count} error${count === 1 ? "" : "s"}; nothing was read or changed`,
  );
}

function usedTargets(state: DesiredState): Set<string> {
  return new Set([
    ...state.repositories.map((entry) => entry.target),
    ...state.sections.map((entry) => entry.target),
  ]);
}

/** Every secret the desired state holds (whichever kind's), by the variable it came from. */
function collectSecrets(state: DesiredState): Map<string, Secret> {
  const secrets = new Map<string, Secret>();
  const walk = (value: unknown): void => {
    if (isSecret(value)) secrets.set(value.source, value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isPlainObject(value)) Object.values(value).forEach(walk);
  };
  walk(state.defaults.map((layer) => layer.value));
  walk(state.repositories.map((entry) => entry.layers.map((layer) => layer.value)));
  walk(state.sections.map((entry) => entry.value));
  return secrets;
}

/**
 * A visible line for every wait that holds requests, so a paced run never looks hung. A wait after
 * a throttling answer says which request was throttled, how long forgeplan waits and why that long.
 */
export function reportEvent(io: CliIO, event: ClientEvent): void {
  if (event.type !== "wait") return;
  const until = `until ${clockTime(event.until)} UTC`;
  const { after } = event;
  if (after === undefined) {
    io.stderr.write(
      `forgeplan: waiting for ${event.reason === "rate-limit-reset" ? "rate-limit reset" : event.reason} ` +
        `(${event.category}) ${until}\n`,
    );
    return;
  }
  const what =
    event.reason === "secondary-limit"
      ? "secondary rate limit"
      : event.reason === "rate-limit-reset"
        ? `rate limit (${event.category}) exhausted`
        : "throttled";
  const why =
    after.source === "backoff"
      ? "forgeplan's own back-off, as the answer said not how long"
      : after.source === "reset"
        ? "the reset the service reported"
        : "as the service's Retry-After asks";
  io.stderr.write(
    `forgeplan: ${what} on ${after.request} (${after.status}): waiting ${Math.ceil(after.waitMs / 1000)} s ${until}, ${why}\n`,
  );
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
  /** A shard's share of the rate budget. */
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
  const againstSandbox = sandboxUrl !== undefined;
  const concurrency =
    parseCount(command, "concurrency", flags.concurrency) ?? CLIENT_DEFAULTS.concurrency;
  if (concurrency < 1 || concurrency > 100) {
    throw new CliError(`${command}: --concurrency must be between 1 and 100, got ${concurrency}`);
  }
  // A local sandbox needs no spacing between writes.
  const writeIntervalMs =
    parseCount(command, "write-interval", flags["write-interval"]) ??
    (againstSandbox ? 0 : CLIENT_DEFAULTS.writeIntervalMs);
  const pointsPerMinute = parseCount(command, "points-per-minute", flags["points-per-minute"]);
  if (pointsPerMinute === 0) {
    throw new CliError(`${command}: --points-per-minute must be at least 1`);
  }
  const maxWaitMs =
    parseDuration(command, "max-wait", flags["max-wait"]) ?? CLIENT_DEFAULTS.maxWaitMs;
  const cache =
    flags.cache !== undefined
      ? openCache(command, io, flags.cache, flags.refresh === true)
      : undefined;
  const listeners: Array<(event: ClientEvent) => void> = [];
  const signal = sessionSignal(io.signal);

  const used = usedTargets(state);
  for (const name of alsoUse) used.add(name);
  const clients = new Map<string, ForgeClient>();
  const readers = new Map<string, ResourceReader>();
  for (const target of state.targets) {
    if (!used.has(target.name)) continue;
    const baseUrl = sandboxUrl ?? target.baseUrl;
    const client = new ForgeClient({
      baseUrl,
      kind: target.type,
      ...credentialsOf(command, io, target, state, baseUrl, againstSandbox, signal),
      concurrency,
      writeIntervalMs,
      maxWaitMs,
      ...(pointsPerMinute === undefined ? {} : { pointsPerMinute }),
      ...(cache ? { cache } : {}),
      signal,
      onEvent: (event) => {
        reportEvent(io, event);
        for (const listener of listeners) listener(event);
      },
      ...clientOptions,
    });
    clients.set(target.name, client);
    readers.set(target.name, new ResourceReader(target.name, client));
  }
  try {
    await Promise.all(
      [...clients].map(([name, client]) =>
        client.prime().catch((error: unknown) => {
          if (!(error instanceof ForgeError)) throw error;
          throw new CliError(`${command}: target '${name}' cannot be used: ${error.message}`);
        }),
      ),
    );
  } catch (error) {
    await stopSandbox?.();
    throw error;
  }
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

/**
 * How a target's client authenticates: as the GitHub App installation it names (against a sandbox
 * too, whose seed then declares the App), else with its token — the demo world's admin token
 * against a sandbox.
 */
function credentialsOf(
  command: string,
  io: CliIO,
  target: TargetConfig,
  state: DesiredState,
  baseUrl: string,
  againstSandbox: boolean,
  signal: AbortSignal,
): { auth: AuthProvider } | { token: Secret } {
  if (target.app !== undefined) {
    return { auth: appAuthOf(command, io, target, target.app, state, baseUrl, signal) };
  }
  if (againstSandbox) return { token: new Secret(SANDBOX_ADMIN_TOKEN, "sandbox") };
  if (target.token) return { token: target.token };
  throw new CliError(
    `${command}: target '${target.name}' needs a token in the environment variable ${target.tokenEnv} ` +
      "(or run against the sandbox with --sandbox)",
  );
}

function appAuthOf(
  command: string,
  io: CliIO,
  target: TargetConfig,
  app: NonNullable<TargetConfig["app"]>,
  state: DesiredState,
  baseUrl: string,
  signal: AbortSignal,
): AuthProvider {
  const fail = (why: string) => new CliError(`${command}: target '${target.name}': ${why}`);
  let pem: Secret;
  if ("file" in app.privateKey) {
    const file = resolve(io.cwd, app.privateKey.file);
    try {
      pem = new Secret(readFileSync(file, "utf8"), `the key file ${app.privateKey.file}`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw fail(
        `cannot read the App's private key ${app.privateKey.file}: ${code === "ENOENT" ? "no such file" : (code ?? "unreadable")}`,
      );
    }
  } else if (app.privateKey.value !== undefined) {
    pem = app.privateKey.value;
  } else {
    throw fail(
      `App ${app.appId} needs its private key in the environment variable ${app.privateKey.env}`,
    );
  }
  // No line of the key reaches any output (a line is what a PEM's text is cut at, and masked by).
  for (const line of pem.reveal().split(/\\n|\n/)) {
    if (line.trim() !== "" && !line.startsWith("-----")) io.redactor?.add(line.trim(), pem.source);
  }
  let privateKey;
  try {
    privateKey = appPrivateKey(pem);
  } catch (error) {
    throw fail((error as Error).message);
  }
  // An installation is on one account: without its id, it is the one on the owner of the target's repositories.
  const owners = new Set(
    state.repositories
      .filter((entry) => entry.target === target.name)
      .map((entry) => entry.selector.owner.toLowerCase()),
  );
  if (app.installationId === undefined && owners.size !== 1) {
    throw fail(
      owners.size === 0
        ? `App ${app.appId} acts as one installation: set installation_id (no repository entry names the owner it is installed on)`
        : `App ${app.appId} acts as one installation, on one account, but the target's repositories belong to ${[...owners].sort().join(", ")}: define one target per owner, or set installation_id`,
    );
  }
  return new AppInstallationAuth({
    appId: app.appId,
    privateKey,
    ...(app.installationId !== undefined
      ? { installationId: app.installationId }
      : { owner: [...owners][0]! }),
    request: createAppRequest({ baseUrl, userAgent: "forgeplan", signal }),
    clock: systemClock,
    ...(io.redactor ? { onSecret: io.redactor.add.bind(io.redactor) } : {}),
  });
}
