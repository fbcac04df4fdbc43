import { CLIENT_DEFAULTS } from "./defaults.js";
import type { ContentLimits } from "./content-creation.js";
import type { ForgeClientOptions } from "./types.js";

/** What a client runs with: its options checked, and each one not given CLIENT_DEFAULTS's. */
export interface ClientSettings {
  /** Whether the service is GitHub's (repository paths), which has secondary limits. */
  github: boolean;
  /** The fraction of the credential's limits the client may spend (a shard's share). */
  share: number;
  /** Requests in flight: the share of the concurrency asked for, at least one. */
  concurrency: number;
  /** The service's root, which carries no credentials. */
  base: URL;
  cpuTimeLimitMs: number;
  contentLimits: ContentLimits | null;
  pointsPerMinute: number;
  writeIntervalMs: number;
  maxWaitMs: number;
  timeoutMs: number;
  idleTimeoutMs: number;
  maxResponseBytes: number;
  maxPages: number;
}

/** The settings of a client, or an Error naming the first option that cannot be used. */
export function clientSettings(options: ForgeClientOptions): ClientSettings {
  const given = options.concurrency ?? CLIENT_DEFAULTS.concurrency;
  if (!Number.isInteger(given) || given < 1 || given > 100) {
    throw new Error(`concurrency must be an integer from 1 to 100, got ${given}`);
  }
  const share = options.shareOfBudget ?? CLIENT_DEFAULTS.shareOfBudget;
  if (!(share > 0 && share <= 1)) {
    throw new Error(`share of the rate budget must be in (0, 1], got ${share}`);
  }
  // GitHub's secondary limits; GitLab documents neither (its limits are counts a minute).
  const github = options.kind === "repository";
  const cpuTimeLimitMs =
    options.cpuTimeLimitMs ?? (github ? CLIENT_DEFAULTS.cpuTimeLimitMs : Number.POSITIVE_INFINITY);
  if (!(cpuTimeLimitMs > 0)) {
    throw new Error(`the CPU-time limit must be more than 0 milliseconds, got ${cpuTimeLimitMs}`);
  }
  const writeIntervalMs = nonNegative(
    "write interval",
    options.writeIntervalMs ?? CLIENT_DEFAULTS.writeIntervalMs,
  );
  const maxWaitMs = nonNegative("maximum wait", options.maxWaitMs ?? CLIENT_DEFAULTS.maxWaitMs);
  const timeoutMs = nonNegative("timeout", options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs);
  if (timeoutMs === 0) throw new Error("timeout must be more than 0 milliseconds");
  const idleTimeoutMs = nonNegative(
    "idle timeout",
    options.idleTimeoutMs ?? CLIENT_DEFAULTS.idleTimeoutMs,
  );
  if (idleTimeoutMs === 0) throw new Error("idle timeout must be more than 0 milliseconds");
  const maxResponseBytes = positiveInteger(
    "maximum response size",
    options.maxResponseBytes ?? CLIENT_DEFAULTS.maxResponseBytes,
  );
  const maxPages = positiveInteger(
    "maximum page count",
    options.maxPages ?? CLIENT_DEFAULTS.maxPages,
  );
  const base = new URL(options.baseUrl);
  if (base.username !== "" || base.password !== "") {
    throw new Error("the base URL must not carry credentials; pass the token separately");
  }
  if (options.auth !== undefined && options.token !== undefined) {
    throw new Error("pass either a token or an auth provider, not both");
  }
  const pointsPerMinute = options.pointsPerMinute ?? CLIENT_DEFAULTS.pointsPerMinute;
  if (!(Number.isFinite(pointsPerMinute) && pointsPerMinute > 0)) {
    throw new Error(`points per minute must be a positive number, got ${pointsPerMinute}`);
  }
  return {
    github,
    share,
    // GitHub counts requests in flight per account, whoever sends them: a share of it is this client's.
    concurrency: Math.max(1, Math.floor(given * share)),
    base,
    cpuTimeLimitMs,
    contentLimits:
      options.contentLimits !== undefined
        ? options.contentLimits
        : github
          ? CLIENT_DEFAULTS.contentLimits
          : null,
    pointsPerMinute,
    writeIntervalMs,
    maxWaitMs,
    timeoutMs,
    idleTimeoutMs,
    maxResponseBytes,
    maxPages,
  };
}

function nonNegative(what: string, value: number): number {
  if (!(Number.isFinite(value) && value >= 0)) {
    throw new Error(`${what} must be a non-negative number of milliseconds, got ${value}`);
  }
  return value;
}

function positiveInteger(what: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) {
    throw new Error(`${what} must be a positive integer, got ${value}`);
  }
  return value;
}
