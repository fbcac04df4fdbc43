import { expect } from "vitest";
import type { RecordedRequest } from "../../src/sandbox/index.js";
import { FIXTURES } from "../kinds/fixtures/index.js";
import { configOf, type KindWorld } from "../kinds/harness.js";

/**
 * Plans a kind's value for the fixture's repository over REST, then over GraphQL: the GET paths
 * each path read (without their queries) and how many queries GraphQL sent, once both planned
 * alike.
 */
export async function bothPaths(world: KindWorld, kind: string, key: string, value: unknown) {
  const state = world.load(configOf(FIXTURES[kind]!, "repository", key, value));
  const { rest, graphql, restRun, graphqlRun } = await world.planBothWays(state);
  expect(graphql.changes).toEqual(rest.changes);
  const gets = (run: readonly RecordedRequest[]) =>
    run.filter((request) => request.method === "GET").map((request) => request.path.split("?")[0]);
  const queries = graphqlRun.filter((request) => request.path === "/graphql");
  return { rest: gets(restRun), graphql: gets(graphqlRun), queries: queries.length };
}
