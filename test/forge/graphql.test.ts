/**
 * The client's GraphQL path against the sandbox: a query draws its predicted cost from the
 * `graphql` budget (GitHub's formula), the answer's `rateLimit.cost` is what is counted, a
 * RATE_LIMITED answer (a 200) is waited out to the reset as a REST 403 is, and a query GitHub could
 * not finish in time (502) is thrown at once, not sent again, for the caller to ask less.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import {
  type ClientEvent,
  ForgeClient,
  ForgeError,
  predictCost,
  RateLimitWaitExceeded,
} from "../../src/forge/client.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { sandbox } from "../helpers/sandbox.js";
import { FakeClock } from "./fake-clock.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

/** A repository's rulesets with their rules: 1 + 100 requests, 1 point. */
const RULES = `query($o: String!, $n: String!) {
  r: repository(owner: $o, name: $n) { rulesets(first: 100) { nodes { rules(first: 100) { totalCount } } } }
  rateLimit { cost } }`;

function client(url: string, options: Partial<ConstructorParameters<typeof ForgeClient>[0]> = {}) {
  return new ForgeClient({
    baseUrl: url,
    kind: "repository",
    token: new Secret("sandbox-admin", "sandbox"),
    ...options,
  });
}

describe("GraphQL queries", () => {
  it("are priced by GitHub's formula, and counted as the answer says", async () => {
    expect(predictCost(RULES, {})).toBe(1);
    const nested = `{ viewer { repositories(first: 100) { nodes { issues(first: 50) { nodes { labels(first: 60) { totalCount } } } } } } }`;
    expect(predictCost(nested)).toBe(51);
    world = await sandbox();
    const forge = client(world.url);
    const result = await forge.graphql<{ r: unknown }>(RULES, { o: "acme", n: "api" });
    expect(result.errors).toEqual([]);
    expect(result.cost).toBe(1);
    expect(forge.stats()).toMatchObject({ graphqlQueries: 1, graphqlPoints: 1, endpoints: {} });
    expect(forge.budget().graphql).toMatchObject({ limit: 5000, used: 1, remaining: 4999 });
  });

  it("waits out a RATE_LIMITED answer to the reset, then sends the query again", async () => {
    const clock = new FakeClock();
    world = await sandbox({
      rateLimits: { graphql: 1 },
      rateWindowSeconds: 60,
      now: () => clock.now(),
    });
    const events: ClientEvent[] = [];
    // A margin of 0: the one point of the window is this client's to spend.
    const forge = client(world.url, {
      clock,
      rateMargin: 0,
      onEvent: (event) => events.push(event),
    });
    await forge.graphql(RULES, { o: "acme", n: "api" });
    const started = clock.now();
    const again = await forge.graphql(RULES, { o: "acme", n: "web" });
    expect(again.errors).toEqual([]);
    expect(clock.now() - started).toBeGreaterThanOrEqual(60_000);
    expect(events.some((event) => event.type === "wait" && event.category === "graphql")).toBe(
      true,
    );
  });

  it("stops at a reset beyond the maximum wait", async () => {
    world = await sandbox({ rateLimits: { graphql: 1 } });
    const forge = client(world.url, { rateMargin: 0, maxWaitMs: 1000 });
    await forge.graphql(RULES, { o: "acme", n: "api" });
    await expect(forge.graphql(RULES, { o: "acme", n: "web" })).rejects.toBeInstanceOf(
      RateLimitWaitExceeded,
    );
  });

  it("throws a 502 at once: a query GitHub could not finish is not sent again", async () => {
    world = await sandbox({ graphqlTimeoutMs: 1 });
    const forge = client(world.url);
    const failure = await forge.graphql(RULES, { o: "acme", n: "api" }).catch((error) => error);
    expect(failure).toBeInstanceOf(ForgeError);
    expect((failure as ForgeError).status).toBe(502);
    expect(world.stats().graphql_queries).toBe(1);
  });
});
