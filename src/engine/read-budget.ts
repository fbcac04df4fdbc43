import {
  durationText,
  GITLAB_API_GROUP,
  type GitlabLimit,
  type GitlabReadBudget,
  leastTime,
  PUBLISHED_LIMITS,
  type ReadBudget,
} from "../core/budget.js";
import { thousands } from "../core/thousands.js";
import type { ClientStats, ForgeClient } from "../forge/client.js";
import { GITLAB_COM_API_LIMIT, GITLAB_COM_ENDPOINT_LIMITS } from "../forge/gitlab-limits.js";
import type { ResourceReader } from "../resources/context.js";

/**
 * The budget line of a plan: what reading live state cost, measured on the targets' clients, and —
 * before anything is read — whether what a run needs fits what is left within `--max-wait`.
 */

function distinctClients(readers: ReadonlyMap<string, ResourceReader>): ForgeClient[] {
  return [...new Set([...readers.values()].map((reader) => reader.client))];
}

/** The hourly limit a client's service reported for a category, or GitHub's for a personal token. */
function hourly(clients: readonly ForgeClient[], category: string, published: number): number {
  const reported = clients
    .map((client) => client.headroom(category)?.limit)
    .filter((limit): limit is number => limit !== undefined && limit > 0);
  return reported.length > 0 ? Math.min(...reported) : published;
}

/** Runs `read` and measures what it cost on the readers' clients. */
export async function measureReads<T>(
  readers: ReadonlyMap<string, ResourceReader>,
  read: () => Promise<T>,
): Promise<{ result: T; budget: ReadBudget }> {
  const clients = distinctClients(readers);
  const before = clients.map((client) => client.stats());
  const result = await read();
  let restRequests = 0;
  let busiest = 0;
  let fromCache = 0;
  let queries = 0;
  let points = 0;
  let gitlab: GitlabReadBudget | undefined;
  for (const [index, client] of clients.entries()) {
    const after = client.stats();
    const earlier: ClientStats = before[index]!;
    let sentByClient = 0;
    for (const [endpoint, count] of Object.entries(after.endpoints)) {
      const sent = count - (earlier.endpoints[endpoint] ?? 0);
      sentByClient += sent;
      // GitHub's secondary limit counts per endpoint; GitLab's are the groups below.
      if (client.gitlabLimits === undefined) busiest = Math.max(busiest, sent);
    }
    restRequests += sentByClient;
    const cached = after.notModified - earlier.notModified;
    const asked = after.graphqlQueries - earlier.graphqlQueries;
    fromCache += cached;
    queries += asked;
    if (client.gitlabLimits === undefined) {
      points += after.graphqlPoints - earlier.graphqlPoints;
      continue;
    }
    gitlab = gitlabReads(gitlab, client.gitlabLimits, earlier, after, {
      rest: sentByClient,
      cached,
      asked,
    });
  }
  return {
    result,
    budget: {
      ...(gitlab !== undefined ? { gitlab } : {}),
      rest_requests: restRequests,
      from_cache: fromCache,
      busiest_endpoint: busiest,
      graphql_queries: queries,
      graphql_points: points,
      rest_limit: hourly(clients, "core", PUBLISHED_LIMITS.restPerHour),
      graphql_limit: hourly(clients, "graphql", PUBLISHED_LIMITS.graphqlPerHour),
    },
  };
}

/** The limits of the groups a plan's GitLab reads counted in, and of all authenticated requests. */
function limitsOf(groups: Record<string, number>): Record<string, GitlabLimit> {
  const limits: Record<string, GitlabLimit> = {};
  for (const rule of GITLAB_COM_ENDPOINT_LIMITS) {
    if (groups[rule.group] === undefined) continue;
    limits[rule.group] = {
      limit: rule.limit,
      window_seconds: rule.windowMs / 1000,
      ...(rule.perRecord ? { per_record: true as const } : {}),
    };
  }
  limits[GITLAB_API_GROUP] = {
    limit: GITLAB_COM_API_LIMIT.limit,
    window_seconds: GITLAB_COM_API_LIMIT.windowMs / 1000,
  };
  return limits;
}

/** A GitLab client's reads added to the plan's GitLab budget so far. */
function gitlabReads(
  sum: GitlabReadBudget | undefined,
  limits: "gitlab.com" | "none",
  earlier: ClientStats,
  after: ClientStats,
  counts: { rest: number; cached: number; asked: number },
): GitlabReadBudget {
  const groups = { ...sum?.requests_by_endpoint_group };
  for (const [group, count] of Object.entries(after.endpointGroups)) {
    const sent = count - (earlier.endpointGroups[group] ?? 0);
    if (sent > 0) groups[group] = (groups[group] ?? 0) + sent;
  }
  const paced = limits === "gitlab.com" || sum?.limits === "gitlab.com";
  return {
    limits: paced ? "gitlab.com" : "none",
    rest_requests: (sum?.rest_requests ?? 0) + counts.rest,
    from_cache: (sum?.from_cache ?? 0) + counts.cached,
    without_validator: (sum?.without_validator ?? 0) + after.noValidator - earlier.noValidator,
    requests_by_endpoint_group: groups,
    endpoint_limits: paced ? limitsOf(groups) : {},
    graphql_queries: (sum?.graphql_queries ?? 0) + counts.asked,
    graphql_complexity:
      (sum?.graphql_complexity ?? 0) + after.graphqlComplexity - earlier.graphqlComplexity,
  };
}

/** What a run will read at least, per target: REST requests and GraphQL queries and points. */
export interface ReadEstimate {
  rest: number;
  graphqlQueries: number;
  graphqlPoints: number;
}

/** A run that cannot fit what is left of the budget within the maximum wait: nothing was read. */
export class BudgetTooSmall extends Error {
  override name = "BudgetTooSmall";
}

function clock(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(11, 16);
}

/**
 * Refuses to start a run whose reads cannot fit what each target's credential has left before its
 * window resets, when that reset is further away than the maximum wait: every read after the
 * budget ran out would wait longer than it may, so the run would stop half-way. The message says
 * what the run needs and the least time it takes at GitHub's limits.
 */
export function checkFits(
  estimates: ReadonlyMap<string, ReadEstimate>,
  readers: ReadonlyMap<string, ResourceReader>,
  now: number,
): void {
  for (const [target, estimate] of estimates) {
    const client = readers.get(target)?.client;
    if (client === undefined) continue;
    // GitLab has no hourly budgets and no points: only GitLab.com's minute of API requests bounds it.
    if (client.gitlabLimits !== undefined) {
      if (client.gitlabLimits === "gitlab.com") checkGitlabFits(target, estimate, client);
      continue;
    }
    const needs: Array<{ category: string; need: number; what: string }> = [
      { category: "core", need: estimate.rest, what: "REST requests" },
      { category: "graphql", need: estimate.graphqlPoints, what: "GraphQL points" },
    ];
    for (const { category, need, what } of needs) {
      const room = client.headroom(category);
      if (room === undefined || need <= room.usable) continue;
      const waitMs = room.reset * 1000 - now;
      if (waitMs <= client.maxWaitMs) continue;
      const least = leastTime({
        rest_requests: estimate.rest,
        from_cache: 0,
        busiest_endpoint: 0,
        graphql_queries: estimate.graphqlQueries,
        graphql_points: estimate.graphqlPoints,
        rest_limit: client.headroom("core")?.limit ?? PUBLISHED_LIMITS.restPerHour,
        graphql_limit: client.headroom("graphql")?.limit ?? PUBLISHED_LIMITS.graphqlPerHour,
      });
      throw new BudgetTooSmall(
        `not started: target '${target}' needs at least ${thousands(estimate.rest)} REST requests and ` +
          `${thousands(estimate.graphqlPoints)} GraphQL points (${durationText(least.minutes)} at ${least.limit}); ` +
          `${thousands(room.usable)} ${what} are left to spend until ${clock(room.reset)} UTC, ` +
          `${Math.ceil(waitMs / 60_000)} min from now, longer than the maximum wait of ` +
          `${Math.ceil(client.maxWaitMs / 60_000)} min; nothing was read (allow a longer wait with ` +
          "--max-wait, or read in bulk with --reads graphql)",
      );
    }
  }
}

/**
 * A run on a GitLab.com target whose reads cannot fit one minute of the 2,000 API requests this
 * client's share allows, when the maximum wait is shorter than that minute: a request would wait
 * longer than it may once the minute's requests are spent, and the run would stop half-way.
 */
function checkGitlabFits(target: string, estimate: ReadEstimate, client: ForgeClient): void {
  const { limit, windowMs } = GITLAB_COM_API_LIMIT;
  const usable = Math.floor(limit * client.shareOfBudget);
  const need = estimate.rest + estimate.graphqlQueries;
  if (need <= usable || windowMs <= client.maxWaitMs) return;
  throw new BudgetTooSmall(
    `not started: target '${target}' needs at least ${thousands(need)} requests, more than the ` +
      `${thousands(usable)} of GitLab.com's ${thousands(limit)} API requests a minute this run may send in one ` +
      `minute, and the maximum wait of ${Math.ceil(client.maxWaitMs / 1000)} s is shorter than that minute; ` +
      "nothing was read (allow a wait of at least a minute with --max-wait)",
  );
}
