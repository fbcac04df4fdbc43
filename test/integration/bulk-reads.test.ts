/**
 * The two read paths plan alike, for every kind GraphQL covers (a kind whose module has a GraphQL
 * read, held by the conformance suite's fixture): from a random live state — a random desired value
 * applied by forgeplan, then a random change made behind its back over plain HTTP — a random
 * desired value is planned once reading over REST and once reading the kind in bulk over GraphQL,
 * and the plans are the same, change for change (address, action, diff, requests, live
 * fingerprint, notes, errors). GraphQL answers reads REST would otherwise make; every query sent
 * validates against GitHub's published schema and carries every name as a variable. A repository
 * that does not exist, planned in the same batch, is an error for it alone, worded as REST words it.
 *
 * `FC_SEED=7 FC_RUNS=500 npx vitest run test/integration/bulk-reads.test.ts` explores further.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { RecordedRequest } from "../../src/sandbox/index.js";
import { REPOSITORY_KINDS } from "../../src/resources/index.js";
import { interpolated, schemaProblems, sentQueries } from "../helpers/graphql.js";
import type { KindFixture } from "../kinds/fixture.js";
import { FIXTURES } from "../kinds/fixtures/index.js";
import { errors, KindWorld, runs } from "../kinds/harness.js";

const PROPERTY_TIMEOUT = 600_000;
const RUNS = 100;

/** A repository of the fixture's owner that does not exist, planned in the same batch. */
const ABSENT = "does-not-exist";

const COVERED = REPOSITORY_KINDS.filter((kind) => kind.repository.graphql !== undefined);

function config(fixture: KindFixture, key: string, value: unknown, absent: boolean): string {
  const where = fixture.repository!;
  const owner = where.at.split("/")[0]!;
  const entry = (name: string) => ({ name, ...where.entry, [key]: value });
  return stringify({
    version: 1,
    repositories: [entry(where.at), ...(absent ? [entry(`${owner}/${ABSENT}`)] : [])],
  });
}

/** REST reads of the repository and its own paths in a run. */
function restReadsOf(run: readonly RecordedRequest[], at: string): string[] {
  const own = `/repos/${at}`;
  return run
    .filter(
      (request) =>
        request.method === "GET" && (request.path === own || request.path.startsWith(`${own}/`)),
    )
    .map((request) => request.path);
}

const noChange = fc.constant(undefined);

/** Whether the kind reads anything of this value over GraphQL. */
function selects(name: string, value: unknown): boolean {
  const graphql = COVERED.find((kind) => kind.name === name)!.repository.graphql!;
  const repo = { owner: "acme", name: "any" };
  return graphql.select({ repo, value, variables: { add: () => "$v" } }) !== undefined;
}

describe.each(COVERED.map((kind) => [kind.name, kind.repository.setting.key] as const))(
  "%s plans alike over REST and GraphQL",
  (name, key) => {
    const fixture = FIXTURES[name]!;
    const where = fixture.repository!;
    it(
      "from random live states to random desired values, a missing repository beside it",
      async () => {
        const drawn = where.desired.chain((live) =>
          fc.record({
            live: fc.constant(live),
            change: where.mutations
              ? fc.option(where.mutations(live), { nil: undefined })
              : noChange,
            desired: where.desired,
          }),
        );
        await fc.assert(
          fc.asyncProperty(drawn, async ({ live, change, desired }) => {
            const world = await KindWorld.start(fixture);
            try {
              const start = world.load(config(fixture, key, live, false));
              await world.apply(await world.plan(start), start);
              if (change) await change.send(world.live());
              const state = world.load(config(fixture, key, desired, true));
              const { rest, graphql, restRun, graphqlRun } = await world.planBothWays(state);
              expect(graphql.changes).toEqual(rest.changes);
              expect(graphql.summary).toEqual(rest.summary);

              const queries = sentQueries(graphqlRun);
              const names = [where.at, ABSENT];
              for (const query of queries) {
                expect(schemaProblems(query.query)).toEqual([]);
                expect(interpolated(query, names)).toEqual([]);
              }
              // What GraphQL answers, REST does not read; what it leaves to REST (a custom role
              // GraphQL cannot name, a wildcard protection rule) is read as the REST run reads it.
              const restReads = restReadsOf(restRun, where.at).length;
              expect(restReadsOf(graphqlRun, where.at).length).toBeLessThanOrEqual(restReads);
              if (selects(name, desired)) expect(queries.length).toBeGreaterThan(0);
              // The missing repository is an error of its own changes only.
              const failed = errors(graphql).map(([address]) => address);
              expect(failed.every((address) => address.includes(`/${ABSENT}/`))).toBe(true);
            } finally {
              await world.stop();
            }
          }),
          runs(29, RUNS),
        );
      },
      PROPERTY_TIMEOUT,
    );
  },
);
