/**
 * Primary rate limits (per token and category, fixed windows that start at the first request) and
 * GitHub's secondary limits (concurrent requests per token; points per minute per endpoint).
 */

export const CATEGORIES = [
  "core",
  "search",
  "graphql",
  "code_search",
  "source_import",
  "integration_manifest",
  "actions_runner_registration",
  "scim",
  "dependency_snapshots",
  "dependency_sbom",
  "code_scanning_autofix",
  "assistant_usage_records",
] as const;
export type Category = (typeof CATEGORIES)[number];

const HOUR = 3600;
const MINUTE = 60;

/** GitHub's published amounts for an authenticated user; windows are an hour unless noted. */
export const DEFAULT_LIMITS: Record<Category, { limit: number; windowSeconds: number }> = {
  core: { limit: 5000, windowSeconds: HOUR },
  search: { limit: 30, windowSeconds: MINUTE },
  graphql: { limit: 5000, windowSeconds: HOUR },
  code_search: { limit: 10, windowSeconds: MINUTE },
  source_import: { limit: 100, windowSeconds: MINUTE },
  integration_manifest: { limit: 5000, windowSeconds: HOUR },
  actions_runner_registration: { limit: 10000, windowSeconds: HOUR },
  scim: { limit: 15000, windowSeconds: HOUR },
  dependency_snapshots: { limit: 100, windowSeconds: HOUR },
  dependency_sbom: { limit: 100, windowSeconds: HOUR },
  code_scanning_autofix: { limit: 10, windowSeconds: HOUR },
  assistant_usage_records: { limit: 10, windowSeconds: HOUR },
};

/** Anonymous callers share a smaller core budget per client address, as on GitHub. */
export const ANONYMOUS_CORE_LIMIT = 60;

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}

export interface RateStatus {
  limit: number;
  remaining: number;
  reset: number;
  used: number;
}

interface Bucket {
  resetAt: number;
  used: number;
}

export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    private readonly overrides: Partial<Record<Category, number>>,
    private readonly windowSeconds: number | undefined,
    private readonly now: () => number,
  ) {}

  #config(category: Category, anonymous: boolean): { limit: number; windowMs: number } {
    const defaults = DEFAULT_LIMITS[category];
    const limit =
      anonymous && category === "core"
        ? ANONYMOUS_CORE_LIMIT
        : (this.overrides[category] ?? defaults.limit);
    return { limit, windowMs: (this.windowSeconds ?? defaults.windowSeconds) * 1000 };
  }

  #bucket(key: string, category: Category, windowMs: number): Bucket {
    const id = `${key}\u0000${category}`;
    const now = this.now();
    let bucket = this.#buckets.get(id);
    if (bucket === undefined || now >= bucket.resetAt) {
      bucket = { resetAt: now + windowMs, used: 0 };
      this.#buckets.set(id, bucket);
    }
    return bucket;
  }

  status(key: string, category: Category, anonymous: boolean): RateStatus {
    const { limit, windowMs } = this.#config(category, anonymous);
    const bucket = this.#bucket(key, category, windowMs);
    return {
      limit,
      remaining: Math.max(0, limit - bucket.used),
      reset: Math.ceil(bucket.resetAt / 1000),
      used: bucket.used,
    };
  }

  /**
   * Spends `points` of the budget (a REST request is 1; a GraphQL query its cost); false when
   * fewer are left (nothing is spent then).
   */
  take(key: string, category: Category, anonymous: boolean, points = 1): boolean {
    const { limit, windowMs } = this.#config(category, anonymous);
    const bucket = this.#bucket(key, category, windowMs);
    if (bucket.used + points > limit) return false;
    bucket.used += points;
    return true;
  }

  /** Gives back a request that turned out to cost nothing (a 304). */
  refund(key: string, category: Category): void {
    const bucket = this.#buckets.get(`${key}\u0000${category}`);
    if (bucket && bucket.used > 0) bucket.used--;
  }

  overview(key: string, anonymous: boolean): Record<string, unknown> {
    const resources: Record<string, RateStatus> = {};
    for (const category of CATEGORIES) resources[category] = this.status(key, category, anonymous);
    return { resources, rate: resources.core };
  }
}

export interface SecondaryOptions {
  maxConcurrent: number;
  /** Per REST endpoint and token. */
  pointsPerMinute: number;
  /** For the GraphQL endpoint, per token. */
  graphqlPointsPerMinute: number;
}

/** GitHub's guidance: mutating requests cost 5 points, reads 1; budgets are per endpoint and token. */
export const WRITE_POINTS = 5;
export const READ_POINTS = 1;
/**
 * A GraphQL request without mutations costs 1 point, against 2,000 a minute for the GraphQL
 * endpoint (GitHub's "Calculating points for the secondary rate limit").
 */
export const GRAPHQL_QUERY_POINTS = 1;
export const GRAPHQL_POINTS_PER_MINUTE = 2000;

export class SecondaryLimiter {
  readonly #inFlight = new Map<string, number>();
  readonly #points = new Map<string, { windowStart: number; used: number }>();

  constructor(
    private readonly options: SecondaryOptions,
    private readonly now: () => number,
  ) {}

  /** Registers a request in flight for `key`; false (and nothing registered) when over the limit. */
  enter(key: string): boolean {
    const count = this.#inFlight.get(key) ?? 0;
    if (count >= this.options.maxConcurrent) return false;
    this.#inFlight.set(key, count + 1);
    return true;
  }

  leave(key: string): void {
    const count = (this.#inFlight.get(key) ?? 1) - 1;
    if (count <= 0) this.#inFlight.delete(key);
    else this.#inFlight.set(key, count);
  }

  /**
   * Spends points on an endpoint (`graphql`: the GraphQL endpoint's budget); returns the seconds to
   * wait when the minute's budget is gone.
   */
  spend(key: string, endpoint: string, points: number, graphql = false): number | undefined {
    const budget = graphql ? this.options.graphqlPointsPerMinute : this.options.pointsPerMinute;
    const id = `${key}\u0000${endpoint}`;
    const now = this.now();
    let window = this.#points.get(id);
    if (window === undefined || now - window.windowStart >= 60_000) {
      window = { windowStart: now, used: 0 };
      this.#points.set(id, window);
    }
    if (window.used + points > budget) {
      return Math.max(1, Math.ceil((window.windowStart + 60_000 - now) / 1000));
    }
    window.used += points;
    return undefined;
  }
}
