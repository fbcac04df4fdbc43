import { type DesiredState, usedTargets } from "../config/model.js";
import type { Redactor } from "../core/redact.js";
import {
  CLIENT_DEFAULTS,
  type ClientEvent,
  type Clock,
  type ConditionalCache,
  ForgeClient,
  ForgeError,
} from "../forge/client.js";
import { clientKindOf } from "../forge/types.js";
import type { ReadsMode } from "../engine/bulk/reads.js";
import { ResourceReader } from "../resources/context.js";
import { ConnectionError, credentialsFor } from "./credentials.js";

export { ConnectionError };

/** How the library reaches the targets of a desired state. */
export interface ConnectOptions {
  /**
   * Point every target at a running sandbox (`startSandbox()`, `forgeplan sandbox`) with the demo
   * world's admin token; otherwise each target's `base_url` with the token from its `token_env`.
   */
  sandboxUrl?: string;
  /** Concurrent reads (default 8). */
  concurrency?: number;
  /** Spacing of mutating requests in ms (default 1000 against a real service, 0 against a sandbox). */
  writeIntervalMs?: number;
  /** The secondary limit each endpoint is paced to (default 900 points a minute). */
  pointsPerMinute?: number;
  /**
   * The response time a minute a target's requests are paced to, GitHub's CPU-time limit (default
   * 90 000 ms against a real service, of which a fifth is kept in reserve; none against a sandbox).
   */
  cpuTimeLimitMs?: number;
  /** Most pages read of one listing (default 1000). */
  maxPages?: number;
  /** Longest any request waits for rate limits (default 15 minutes). */
  maxWaitMs?: number;
  /** Stops the run: nothing further is sent once it fires. */
  signal?: AbortSignal;
  /** Time as the clients see it, for their waits (default the system's); tests pass a fake one. */
  clock?: Clock;
  /** Every request, retry and wait of the clients (progress, logs). */
  onEvent?: (event: ClientEvent) => void;
  /**
   * How repositories and GitLab projects are read: `graphql` reads the kinds GraphQL covers in
   * bulk, many a query; `rest` one request a resource; `auto` (default) in bulk for a target with
   * many.
   */
  reads?: ReadsMode;
}

export interface Connection {
  clients: Map<string, ForgeClient>;
  readers: Map<string, ResourceReader>;
}

/** What the CLI adds when it connects: its cache, targets no entry uses, a shard's share. */
export interface TargetOptions extends ConnectOptions {
  /** The conditional-request cache kept between runs (`--cache DIR`). */
  cache?: ConditionalCache;
  /** Targets to connect even if no entry uses them (export names what it reads on the command line). */
  alsoUse?: readonly string[];
  /** A shard's share of the token's limits. */
  shareOfBudget?: number;
}

/**
 * The one way a target is connected, for the CLI, the library and the Action (which runs the CLI):
 * one client and reader per target the desired state uses, signed in as its token or GitHub App
 * says, against the sandbox when one is given, and primed (`GET /rate_limit`, which costs nothing)
 * so a target that cannot be used fails here, before anything is planned. Each default is the
 * client's (`CLIENT_DEFAULTS`); against a sandbox, writes are not spaced and the secondary limits a
 * sandbox does not enforce unless started to (`--cpu-limit`) are not paced to.
 */
export async function connect(
  state: DesiredState,
  options: TargetOptions,
  /** Where an App's key file is relative to, and the redactor that learns its lines and tokens. */
  context: { cwd: string; redactor?: Redactor },
): Promise<Connection> {
  const used = usedTargets(state);
  for (const name of options.alsoUse ?? []) used.add(name);
  const sandbox = options.sandboxUrl !== undefined;
  const clients = new Map<string, ForgeClient>();
  const readers = new Map<string, ResourceReader>();
  for (const target of state.targets) {
    if (!used.has(target.name)) continue;
    const baseUrl = options.sandboxUrl ?? target.baseUrl;
    const client = new ForgeClient({
      baseUrl,
      kind: clientKindOf(target.type),
      ...credentialsFor(target, state, {
        baseUrl,
        againstSandbox: sandbox,
        signal: options.signal,
        cwd: context.cwd,
        ...(context.redactor ? { redactor: context.redactor } : {}),
      }),
      concurrency: options.concurrency ?? CLIENT_DEFAULTS.concurrency,
      writeIntervalMs: options.writeIntervalMs ?? (sandbox ? 0 : CLIENT_DEFAULTS.writeIntervalMs),
      maxWaitMs: options.maxWaitMs ?? CLIENT_DEFAULTS.maxWaitMs,
      ...(options.pointsPerMinute === undefined
        ? {}
        : { pointsPerMinute: options.pointsPerMinute }),
      ...(options.cpuTimeLimitMs !== undefined
        ? { cpuTimeLimitMs: options.cpuTimeLimitMs }
        : sandbox
          ? { cpuTimeLimitMs: Number.POSITIVE_INFINITY }
          : {}),
      ...(sandbox ? { contentLimits: null, refusedIsFinal: true } : {}),
      ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }),
      ...(options.cache === undefined ? {} : { cache: options.cache }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
      ...(options.shareOfBudget === undefined ? {} : { shareOfBudget: options.shareOfBudget }),
      // Against a sandbox the base URL is the sandbox's: only a target's own `limits` turns them on.
      ...(target.limits === undefined ? {} : { gitlabLimits: target.limits }),
    });
    clients.set(target.name, client);
    readers.set(target.name, new ResourceReader(target.name, client));
  }
  await Promise.all(
    [...clients].map(([name, client]) =>
      client.prime().catch((error: unknown) => {
        if (!(error instanceof ForgeError)) throw error;
        // No answer at all from a sandbox: none is running there (a port mistyped, one stopped).
        if (options.sandboxUrl !== undefined && error.status === 0) {
          throw new ConnectionError(
            `no sandbox answers at ${options.sandboxUrl}: ${error.detail}`,
            {
              sandbox: true,
            },
          );
        }
        throw new ConnectionError(`target '${name}' cannot be used: ${error.message}`);
      }),
    ),
  );
  return { clients, readers };
}
