import { expect } from "vitest";
import { FIXTURES } from "../kinds/fixtures/index.js";
import { configOf, type KindWorld } from "../kinds/harness.js";

/**
 * Plans a kind's value for the fixture's repository over REST, then over GraphQL: the GET paths
 * each path read (without their queries) and how many queries GraphQL sent, once both planned
 * alike.
 */
export async function bothPaths(world: KindWorld, kind: string, key: string, value: unknown) {
  const state = world.load(configOf(FIXTURES[kind]!, "repository", key, value));
  const from = world.requests.length;
  const rest = await world.plan(state, undefined, "rest");
  const middle = world.requests.length;
  const graphql = await world.plan(state, undefined, "graphql");
  expect(graphql.changes).toEqual(rest.changes);
  const gets = (start: number, end?: number) =>
    world.requests
      .slice(start, end)
      .filter((request) => request.method === "GET")
      .map((request) => request.path.split("?")[0]);
  const queries = world.requests.slice(middle).filter((request) => request.path === "/graphql");
  return { rest: gets(from, middle), graphql: gets(middle), queries: queries.length };
}
