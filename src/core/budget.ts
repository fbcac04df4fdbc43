/**
 * What a plan's reads cost, and the least time GitHub's published limits allow for them — the
 * budget line every plan carries. The limits ("Rate limits for the REST API", "Rate limits and
 * query limits for the GraphQL API", docs/service-decisions.md), for a personal token unless the
 * service reported other hourly limits:
 *
 * - 5,000 REST requests an hour (an answer from the cache, a 304, costs none) and 5,000 GraphQL
 *   points an hour;
 * - 900 secondary points a minute per REST endpoint (a read costs 1) and 2,000 a minute for the
 *   GraphQL endpoint (a query costs 1);
 * - 90 s of response time a minute, at most 60 s of it GraphQL, taking a REST read as 0.3 s and a
 *   GraphQL query as 2 s.
 *
 * Each limit bounds the time from below (its work ÷ its rate); the least time is the largest bound.
 */

export interface ReadBudget {
  /** REST requests sent (answers from the cache included). */
  rest_requests: number;
  /** Of those, answered 304 from the conditional cache: no rate budget spent. */
  from_cache: number;
  /** REST requests of the endpoint that had the most: the secondary limit counts per endpoint. */
  busiest_endpoint: number;
  graphql_queries: number;
  graphql_points: number;
  /** The hourly limits the service reported for the credential (REST requests, GraphQL points). */
  rest_limit: number;
  graphql_limit: number;
}

export const PUBLISHED_LIMITS = {
  restPerHour: 5000,
  graphqlPerHour: 5000,
  restPointsPerMinute: 900,
  graphqlPointsPerMinute: 2000,
  responseSecondsPerMinute: 90,
  graphqlResponseSecondsPerMinute: 60,
  restReadSeconds: 0.3,
  graphqlQuerySeconds: 2,
} as const;

export interface LeastTime {
  minutes: number;
  /** The limit that sets it, as a plan names it: "900 REST points/min". */
  limit: string;
}

/**
 * A number with thousands separators, as toLocaleString("en-US") writes it. A whole number is
 * written without it: a run's first toLocaleString starts ICU, some 30 ms of CPU, for a comma.
 */
export function thousands(value: number): string {
  if (!Number.isInteger(value)) return value.toLocaleString("en-US");
  return String(value).replace(/\B(?=(\d{3})+$)/g, ",");
}

/** The least time the limits allow for a budget's reads, and the limit that sets it. */
export function leastTime(budget: ReadBudget): LeastTime {
  const limits = PUBLISHED_LIMITS;
  const paid = budget.rest_requests - budget.from_cache;
  const bounds: LeastTime[] = [
    {
      minutes: (paid / budget.rest_limit) * 60,
      limit: `${thousands(budget.rest_limit)} REST requests/h`,
    },
    {
      minutes: (budget.graphql_points / budget.graphql_limit) * 60,
      limit: `${thousands(budget.graphql_limit)} GraphQL points/h`,
    },
    {
      minutes: budget.busiest_endpoint / limits.restPointsPerMinute,
      limit: `${limits.restPointsPerMinute} REST points/min`,
    },
    {
      minutes: budget.graphql_queries / limits.graphqlPointsPerMinute,
      limit: `${thousands(limits.graphqlPointsPerMinute)} GraphQL points/min`,
    },
    {
      minutes:
        (budget.rest_requests * limits.restReadSeconds +
          budget.graphql_queries * limits.graphqlQuerySeconds) /
        limits.responseSecondsPerMinute,
      limit: `${limits.responseSecondsPerMinute} s of response time/min`,
    },
    {
      minutes:
        (budget.graphql_queries * limits.graphqlQuerySeconds) /
        limits.graphqlResponseSecondsPerMinute,
      limit: `${limits.graphqlResponseSecondsPerMinute} s of GraphQL response time/min`,
    },
  ];
  return bounds.reduce((largest, bound) => (bound.minutes > largest.minutes ? bound : largest));
}

/** "≥ 11 min", "≥ 6 h 2 min", "≥ 8 s": the least time, rounded up to what it is shown in. */
export function durationText(minutes: number): string {
  if (minutes < 1) return `≥ ${Math.ceil(minutes * 60)} s`;
  const whole = Math.ceil(minutes);
  if (whole < 60) return `≥ ${whole} min`;
  const rest = whole % 60;
  return `≥ ${Math.floor(whole / 60)} h${rest > 0 ? ` ${rest} min` : ""}`;
}

/**
 * The budget line of a plan: "Reads: 3,012 REST requests (0 from the cache), 0 GraphQL queries
 * (0 points) · ≥ 11 min at 900 REST points/min".
 */
export function budgetLine(budget: ReadBudget): string {
  const least = leastTime(budget);
  const rest = `${thousands(budget.rest_requests)} REST request${budget.rest_requests === 1 ? "" : "s"}`;
  const cached = `${thousands(budget.from_cache)} from the cache`;
  const queries = `${thousands(budget.graphql_queries)} GraphQL quer${budget.graphql_queries === 1 ? "y" : "ies"}`;
  const points = `${thousands(budget.graphql_points)} point${budget.graphql_points === 1 ? "" : "s"}`;
  const reads = `Reads: ${rest} (${cached}), ${queries} (${points})`;
  return least.minutes > 0 ? `${reads} · ${durationText(least.minutes)} at ${least.limit}` : reads;
}

/** Shard plans merged: their reads added up (the busiest endpoint at most the sum of theirs). */
export function addBudgets(budgets: readonly ReadBudget[]): ReadBudget | undefined {
  if (budgets.length === 0) return undefined;
  return budgets.reduce((sum, budget) => ({
    rest_requests: sum.rest_requests + budget.rest_requests,
    from_cache: sum.from_cache + budget.from_cache,
    busiest_endpoint: sum.busiest_endpoint + budget.busiest_endpoint,
    graphql_queries: sum.graphql_queries + budget.graphql_queries,
    graphql_points: sum.graphql_points + budget.graphql_points,
    rest_limit: Math.min(sum.rest_limit, budget.rest_limit),
    graphql_limit: Math.min(sum.graphql_limit, budget.graphql_limit),
  }));
}
