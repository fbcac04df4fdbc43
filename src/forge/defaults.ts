import type { ContentLimits } from "./content-creation.js";
import { CONTENT_CREATION, CPU_TIME } from "./limits.js";
import type { RetryPolicy } from "./retry-policy.js";

/**
 * The client's defaults, written once: the client applies them to options left out, and the CLI
 * shows and builds on the same values.
 */
export const CLIENT_DEFAULTS = {
  /** Requests in flight at once. */
  concurrency: 8,
  /** GitHub asks for at least a second between mutating requests ("Best practices for using the REST API"). */
  writeIntervalMs: 1000,
  maxWaitMs: 15 * 60_000,
  timeoutMs: 30_000,
  /**
   * Longest a started body may go without a byte: GitHub sends a body as one burst, so a pause this
   * long is a stall, not a slow answer, and the attempt is retried rather than waited out.
   */
  idleTimeoutMs: 10_000,
  retries: { max: 5, baseMs: 500, capMs: 30_000 } satisfies RetryPolicy,
  /** GitHub's secondary limit for REST: 900 points a minute per endpoint. */
  pointsPerMinute: 900,
  /** GitHub's secondary limit on content-creating requests of an account. */
  contentLimits: CONTENT_CREATION as ContentLimits | null,
  /** GitHub's secondary limit on an account's CPU time, estimated by response time. */
  cpuTimeLimitMs: CPU_TIME.limitMs as number,
  /**
   * A page of 100 repositories from GitHub is under 1 MiB; 16 times that leaves room for any page
   * forgeplan reads while keeping a broken or hostile answer from filling memory.
   */
  maxResponseBytes: 16 * 1024 * 1024,
  /** 100,000 items at 100 a page, past what any listing forgeplan reads holds. */
  maxPages: 1000,
  shareOfBudget: 1,
} as const;
