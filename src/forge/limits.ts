/**
 * The limits forgeplan paces to, as data (as octokit/plugin-throttling lists its groups): which
 * primary budget a path draws on, what each request costs of an endpoint's secondary points, how
 * writes are spaced, and how long to back off when a throttling answer says not how long.
 */

/**
 * Primary rate-limit categories by path, first match first; anything else is "core". The service
 * names the category of each answer (X-RateLimit-Resource); this is only what a request draws on
 * before any answer has said so. GitHub: "Rate limits for the REST API" (search, code_search, graphql).
 */
export const CATEGORIES: ReadonlyArray<{ category: string; prefix: string; exact?: true }> = [
  { category: "code_search", prefix: "/search/code" },
  { category: "search", prefix: "/search/" },
  { category: "graphql", prefix: "/graphql", exact: true },
];
export const DEFAULT_CATEGORY = "core";

/**
 * GitHub's GraphQL endpoint. A query is paced as a read: it draws its predicted cost in points from
 * the `graphql` category, and 1 secondary point from the endpoint's 2,000 a minute (a request with
 * mutations would cost 5; forgeplan sends none). GitHub's "Rate limits and query limits for the
 * GraphQL API" and "Calculating points for the secondary rate limit".
 */
export const GRAPHQL = {
  path: "/graphql",
  category: "graphql",
  queryPoints: 1,
  pointsPerMinute: 2000,
} as const;

/** GET /rate_limit: free ("Accessing this endpoint does not count against your REST API rate limit"). */
export const FREE_PATH = "/rate_limit";

/**
 * GitHub's secondary limit in points per endpoint per minute: a read costs 1, a mutating request 5
 * ("Rate limits for the REST API", secondary rate limits).
 */
export const POINTS = { read: 1, write: 5, windowMs: 60_000 } as const;

/**
 * GitHub's content-creation limit: "no more than 80 content-generating requests per minute and no
 * more than 500 content-generating requests per hour" per account, web interface included ("Rate
 * limits for the REST API", secondary rate limits). GitHub lists no such requests; forgeplan
 * counts every POST (each creates something) and a PUT that creates what it names (an
 * environment, a collaborator), which its caller marks (`RequestOptions.creates`).
 */
export const CONTENT_CREATION = { perMinute: 80, perHour: 500 } as const;

/**
 * GitHub's CPU-time limit: "No more than 90 seconds of CPU time per 60 seconds of real time is
 * allowed. No more than 60 seconds of this CPU time may be for the GraphQL API", which a client
 * estimates "by measuring the total response time" of its requests (same page). forgeplan keeps a
 * fifth of each in reserve: its measure is its own, not the service's.
 */
export const CPU_TIME = {
  limitMs: 90_000,
  graphqlLimitMs: 60_000,
  windowMs: 60_000,
  reserve: 0.2,
} as const;

/**
 * The mutating requests: GitHub asks for them one at a time, "at least one second between each"
 * ("Best practices for using the REST API"); the client sends them through a WriteLane.
 */
export const MUTATING: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Resets are reported in whole seconds and clocks differ: wait this much past a reported reset. */
export const SKEW_MS = 1000;

/**
 * A throttling answer with no hint how long to wait: GitHub ("wait at least one minute before
 * retrying") and GitLab both ask for a minute; each further such answer doubles it.
 */
export const THROTTLE_BACKOFF_MS = 60_000;

export function categoryOf(path: string): string {
  const match = CATEGORIES.find((entry) =>
    entry.exact ? path === entry.prefix : path.startsWith(entry.prefix),
  );
  return match?.category ?? DEFAULT_CATEGORY;
}
