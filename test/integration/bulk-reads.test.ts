/**
 * The two read paths plan alike: random live states, written over plain HTTP or applied by
 * forgeplan, are planned for random desired states once reading every repository over REST and
 * once reading the kinds GraphQL covers in bulk over GraphQL — and the plans are the same, change
 * for change (address, action, diff, requests, live fingerprint, notes, errors). Every query sent
 * validates against GitHub's published schema and carries every name as a variable. A repository
 * that does not exist, planned in the same batch, is an error for it alone, worded as REST words it.
 *
 * `FC_SEED=7 FC_RUNS=500 npx vitest run test/integration/bulk-reads.test.ts` explores further.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RecordedRequest } from "../../src/sandbox/index.js";
import { sandboxEngine, type EngineEntry } from "../helpers/engine.js";
import { interpolated, schemaProblems, sentQueries } from "../helpers/graphql.js";
import { setProtection } from "../helpers/live.js";
import { rulesets } from "../helpers/ruleset-values.js";
import { sandbox } from "../helpers/sandbox.js";
import { desiredEntry, REPOS, scenarios } from "../helpers/scenarios.js";

function runs(seed: number, numRuns: number): fc.Parameters<unknown> {
  const env = process.env;
  return {
    seed: env.FC_SEED ? Number(env.FC_SEED) : seed,
    numRuns: env.FC_RUNS ? Number(env.FC_RUNS) : numRuns,
  };
}

const PROPERTY_TIMEOUT = 300_000;

/** A repository of the world's owner that does not exist, planned beside the real one. */
const ABSENT = "does-not-exist";

/** Plans `entries` over REST, then in bulk over GraphQL, and checks they plan alike. */
async function bothWays(
  engine: ReturnType<typeof sandboxEngine>,
  entries: EngineEntry[],
  requests: RecordedRequest[],
  names: readonly string[],
): Promise<{ rest: Plan; graphql: Plan; graphqlRun: RecordedRequest[] }> {
  const state = engine.state(entries);
  const rest = await engine.plan(state, "rest");
  const sentBefore = requests.length;
  const graphql = await engine.plan(state, "graphql");
  expect(graphql.changes).toEqual(rest.changes);
  expect(graphql.summary).toEqual(rest.summary);
  const graphqlRun = requests.slice(sentBefore);
  const queries = sentQueries(graphqlRun);
  expect(queries.length).toBeGreaterThan(0);
  for (const query of queries) {
    expect(schemaProblems(query.query)).toEqual([]);
    expect(interpolated(query, names)).toEqual([]);
  }
  return { rest, graphql, graphqlRun };
}

/** The REST reads of a run whose path matches. */
function restReads(run: readonly RecordedRequest[], path: RegExp): string[] {
  return run
    .filter((request) => request.method === "GET" && path.test(request.path))
    .map((request) => request.path);
}

describe("branch protections plan alike over REST and GraphQL", () => {
  it(
    "from random live protections to random desired ones",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenarios(REPOS), async (s) => {
          const requests: RecordedRequest[] = [];
          const world = await sandbox({ ...s.repo.world, onRequest: (r) => requests.push(r) });
          try {
            const live = { world, token: s.repo.token, owner: s.repo.owner, name: s.repo.name };
            await Promise.all(
              s.repo.branches.map((branch, index) =>
                setProtection(live, branch, s.liveProtections[index] ?? null),
              ),
            );
            const entry = desiredEntry(s);
            const protections = { branch_protection: entry.settings.branch_protection };
            const engine = sandboxEngine(world, s.repo.token);
            const entries: EngineEntry[] = [
              { ...entry, settings: protections },
              {
                ...entry,
                selector: { kind: "name", owner: s.repo.owner, repo: ABSENT },
                settings: { branch_protection: { main: { enforce_admins: true } } },
              },
            ];
            const { graphql, graphqlRun } = await bothWays(engine, entries, requests, [
              s.repo.name,
              ABSENT,
              ...s.repo.branches,
            ]);
            const absent = graphql.changes.filter((change) => change.scope.endsWith(`/${ABSENT}`));
            expect(absent.map((change) => change.error?.status)).toEqual([404]);
            // GraphQL answered every protection: none was read over REST.
            expect(restReads(graphqlRun, /\/branches\/.+\/protection/)).toEqual([]);
          } finally {
            await world.stop();
          }
        }),
        runs(29, 100),
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe("rulesets plan alike over REST and GraphQL", () => {
  const NAMES = ["one", "two", "release tags"];
  it(
    "from random rulesets forgeplan applied to random desired ones",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          rulesets("repository", NAMES),
          rulesets("repository", NAMES),
          async (live, desired) => {
            const requests: RecordedRequest[] = [];
            const world = await sandbox({ onRequest: (r) => requests.push(r) });
            try {
              const engine = sandboxEngine(world);
              const at = (repo: string, value: unknown): EngineEntry => ({
                selector: { kind: "name", owner: "acme", repo },
                ownerType: "organization",
                settings: { rulesets: value },
              });
              const written = await engine.plan(engine.state([at("api", live)]));
              await engine.apply(written, { allowDelete: true });
              const { graphqlRun } = await bothWays(
                engine,
                [at("api", desired), at("web", desired), at(ABSENT, desired)],
                requests,
                ["api", "web", ABSENT, ...NAMES],
              );
              // GraphQL answered every listing: a ruleset is read over REST only when GraphQL
              // cannot show all of it.
              expect(restReads(graphqlRun, /\/rulesets\?/)).toEqual([]);
            } finally {
              await world.stop();
            }
          },
        ),
        runs(29, 100),
      );
    },
    PROPERTY_TIMEOUT,
  );
});
