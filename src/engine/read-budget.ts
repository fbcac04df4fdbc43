import {
  durationText,
  leastTime,
  PUBLISHED_LIMITS,
  type ReadBudget,
  thousands,
} from "../core/budget.js";
import type { ClientStats, ForgeClient } from "../forge/client.js";
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
  for (const [index, client] of clients.entries()) {
    const after = client.stats();
    const earlier: ClientStats = before[index]!;
    for (const [endpoint, count] of Object.entries(after.endpoints)) {
      const sent = count - (earlier.endpoints[endpoint] ?? 0);
      restRequests += sent;
      busiest = Math.max(busiest, sent);
    }
    fromCache += after.notModified - earlier.notModified;
    queries += after.graphqlQueries - earlier.graphqlQueries;
    points += after.graphqlPoints - earlier.graphqlPoints;
  }
  return {
    result,
    budget: {
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
