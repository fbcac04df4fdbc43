import { thousands } from "./thousands.js";

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
 *
 * A plan that reads GitLab adds `gitlab`: its requests by the endpoint group of GitLab.com's
 * limits, each group's limit as the client paced it (src/forge/gitlab-limits.ts), so the least time
 * at a GitLab.com target's limits is computed from the plan alone. A self-managed instance
 * (`limits: none`) publishes no limits and bounds nothing.
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
  /** What GitLab targets read; absent when the plan reads none. */
  gitlab?: GitlabReadBudget;
}

/** One of GitLab.com's limits as a budget records it. */
export interface GitlabLimit {
  limit: number;
  window_seconds: number;
  /** Counted for each project or group: a run that reads each once is not held by it. */
  per_record?: true;
}

/** The reads of a plan's GitLab targets (also counted in the totals above). */
export interface GitlabReadBudget {
  /** gitlab.com when any GitLab target is held to GitLab.com's limits; none otherwise. */
  limits: "gitlab.com" | "none";
  rest_requests: number;
  /** Answered 304 from the cache: on GitLab still counted against its limits. */
  from_cache: number;
  /** Answers that carried no ETag while a cache was on: no run can send a validator for them. */
  without_validator: number;
  /** REST requests by the endpoint group of GitLab.com's limits ("other": none of them). */
  requests_by_endpoint_group: Record<string, number>;
  /** The limits of those groups and of all authenticated API requests; {} for `none`. */
  endpoint_limits: Record<string, GitlabLimit>;
  graphql_queries: number;
  /** The complexity GitLab reported for the GraphQL queries. */
  graphql_complexity: number;
}

/** Every authenticated request counts in it, GraphQL queries included. */
export const GITLAB_API_GROUP = "authenticated API";

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

/** "a minute", "10 min": a window as a limit's label says it. */
function per(windowSeconds: number): string {
  return windowSeconds === 60 ? "/min" : ` per ${Math.round(windowSeconds / 60)} min`;
}

/** The bounds GitLab.com's limits set on a plan's GitLab reads; none for a self-managed one. */
function gitlabBounds(gitlab: GitlabReadBudget | undefined): LeastTime[] {
  if (gitlab === undefined || gitlab.limits !== "gitlab.com") return [];
  const bounds: LeastTime[] = [];
  const bound = (requests: number, group: string, limit: GitlabLimit | undefined) => {
    if (limit === undefined || limit.per_record || !(limit.limit > 0)) return;
    bounds.push({
      minutes: (requests / limit.limit) * (limit.window_seconds / 60),
      limit: `GitLab.com's ${thousands(limit.limit)} ${group} requests${per(limit.window_seconds)}`,
    });
  };
  for (const [group, requests] of Object.entries(gitlab.requests_by_endpoint_group)) {
    bound(requests, group, gitlab.endpoint_limits[group]);
  }
  bound(
    gitlab.rest_requests + gitlab.graphql_queries,
    "API",
    gitlab.endpoint_limits[GITLAB_API_GROUP],
  );
  return bounds;
}

/** The least time the limits allow for a budget's reads, and the limit that sets it. */
export function leastTime(budget: ReadBudget): LeastTime {
  const limits = PUBLISHED_LIMITS;
  const github = githubPart(budget);
  const paid = github.rest_requests - github.from_cache;
  const bounds: LeastTime[] = [
    ...gitlabBounds(budget.gitlab),
    {
      minutes: (paid / budget.rest_limit) * 60,
      limit: `${thousands(budget.rest_limit)} REST requests/h`,
    },
    {
      minutes: (github.graphql_points / budget.graphql_limit) * 60,
      limit: `${thousands(budget.graphql_limit)} GraphQL points/h`,
    },
    {
      minutes: github.busiest_endpoint / limits.restPointsPerMinute,
      limit: `${limits.restPointsPerMinute} REST points/min`,
    },
    {
      minutes: github.graphql_queries / limits.graphqlPointsPerMinute,
      limit: `${thousands(limits.graphqlPointsPerMinute)} GraphQL points/min`,
    },
    {
      minutes:
        (github.rest_requests * limits.restReadSeconds +
          github.graphql_queries * limits.graphqlQuerySeconds) /
        limits.responseSecondsPerMinute,
      limit: `${limits.responseSecondsPerMinute} s of response time/min`,
    },
    {
      minutes:
        (github.graphql_queries * limits.graphqlQuerySeconds) /
        limits.graphqlResponseSecondsPerMinute,
      limit: `${limits.graphqlResponseSecondsPerMinute} s of GraphQL response time/min`,
    },
  ];
  const least = bounds.reduce((largest, bound) =>
    bound.minutes > largest.minutes ? bound : largest,
  );
  // Only a self-managed GitLab was read: no published limit bounds the time, and the plan says so.
  const unbounded = least.minutes === 0 && budget.gitlab?.limits === "none";
  return unbounded ? { minutes: 0, limit: NO_PUBLISHED_LIMITS } : least;
}

const NO_PUBLISHED_LIMITS = "no published limits (self-managed GitLab)";

/** The GitHub share of a budget's counts: the totals less what GitLab targets read. */
function githubPart(budget: ReadBudget): ReadBudget {
  const gitlab = budget.gitlab;
  if (gitlab === undefined) return budget;
  return {
    ...budget,
    rest_requests: Math.max(0, budget.rest_requests - gitlab.rest_requests),
    from_cache: Math.max(0, budget.from_cache - gitlab.from_cache),
    graphql_queries: Math.max(0, budget.graphql_queries - gitlab.graphql_queries),
  };
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
  const { gitlab } = budget;
  const github = githubPart(budget);
  const parts: string[] = [];
  if (gitlab === undefined || github.rest_requests > 0 || github.graphql_queries > 0) {
    const cached = `${thousands(github.from_cache)} from the cache`;
    const points = plural(github.graphql_points, "point");
    parts.push(
      `Reads: ${restRequests(github.rest_requests)} (${cached}), ${graphqlQueries(github.graphql_queries)} (${points})`,
    );
  }
  if (gitlab !== undefined) parts.push(gitlabReads(gitlab));
  const reads = parts.join("; ");
  if (least.minutes > 0) return `${reads} · ${durationText(least.minutes)} at ${least.limit}`;
  return least.limit === NO_PUBLISHED_LIMITS ? `${reads} · ${NO_PUBLISHED_LIMITS}` : reads;
}

function plural(count: number, noun: string): string {
  return `${thousands(count)} ${noun}${count === 1 ? "" : "s"}`;
}

function restRequests(count: number): string {
  return plural(count, "REST request");
}

function graphqlQueries(count: number): string {
  return `${thousands(count)} GraphQL quer${count === 1 ? "y" : "ies"}`;
}

/**
 * "Reads on GitLab: 1,250 REST requests (GET /api/v4/projects/:id 450, other 800; 0 from the
 * cache, 800 without an ETag), 0 GraphQL queries (complexity 0)": the groups busiest first,
 * "other" last.
 */
function gitlabReads(gitlab: GitlabReadBudget): string {
  const groups = Object.entries(gitlab.requests_by_endpoint_group)
    .filter(([, count]) => count > 0)
    .sort(([a, x], [b, y]) => Number(a === "other") - Number(b === "other") || y - x)
    .map(([group, count]) => `${group} ${thousands(count)}`);
  const cache = [`${thousands(gitlab.from_cache)} from the cache`];
  if (gitlab.without_validator > 0) {
    cache.push(`${thousands(gitlab.without_validator)} without an ETag`);
  }
  const detail = [...(groups.length > 0 ? [groups.join(", ")] : []), cache.join(", ")].join("; ");
  return (
    `Reads on GitLab: ${restRequests(gitlab.rest_requests)} (${detail}), ` +
    `${graphqlQueries(gitlab.graphql_queries)} (complexity ${thousands(gitlab.graphql_complexity)})`
  );
}

/** Shard plans' GitLab reads merged: counts added, the limits as either recorded them. */
function addGitlab(
  a: GitlabReadBudget | undefined,
  b: GitlabReadBudget | undefined,
): GitlabReadBudget | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const groups = { ...a.requests_by_endpoint_group };
  for (const [group, count] of Object.entries(b.requests_by_endpoint_group)) {
    groups[group] = (groups[group] ?? 0) + count;
  }
  return {
    limits: a.limits === "gitlab.com" || b.limits === "gitlab.com" ? "gitlab.com" : "none",
    rest_requests: a.rest_requests + b.rest_requests,
    from_cache: a.from_cache + b.from_cache,
    without_validator: a.without_validator + b.without_validator,
    requests_by_endpoint_group: groups,
    endpoint_limits: { ...a.endpoint_limits, ...b.endpoint_limits },
    graphql_queries: a.graphql_queries + b.graphql_queries,
    graphql_complexity: a.graphql_complexity + b.graphql_complexity,
  };
}

/** Shard plans merged: their reads added up (the busiest endpoint at most the sum of theirs). */
export function addBudgets(budgets: readonly ReadBudget[]): ReadBudget | undefined {
  if (budgets.length === 0) return undefined;
  return budgets.reduce((sum, budget) => {
    const gitlab = addGitlab(sum.gitlab, budget.gitlab);
    return {
      rest_requests: sum.rest_requests + budget.rest_requests,
      from_cache: sum.from_cache + budget.from_cache,
      busiest_endpoint: sum.busiest_endpoint + budget.busiest_endpoint,
      graphql_queries: sum.graphql_queries + budget.graphql_queries,
      graphql_points: sum.graphql_points + budget.graphql_points,
      rest_limit: Math.min(sum.rest_limit, budget.rest_limit),
      graphql_limit: Math.min(sum.graphql_limit, budget.graphql_limit),
      ...(gitlab !== undefined ? { gitlab } : {}),
    };
  });
}
