/**
 * "No perpetual diffs" for rulesets, as a property: from any live state forgeplan can be asked to
 * write (a random set of rulesets applied first), applying another random desired state converges
 * (the re-plan is a no-op), and a random change made to a live ruleset behind forgeplan's back is
 * shown as exactly the fields it touched. Each run starts a fresh sandbox with the demo world.
 * Explore further with `FC_SEED=7 FC_RUNS=100 npx vitest run test/integration/ruleset-convergence.test.ts`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { bodyProblems, checkRulesetBodies } from "../helpers/rulesets.js";
import { rulesets } from "../helpers/ruleset-values.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

type Json = Record<string, unknown>;

function runs(seed: number, numRuns: number): fc.Parameters<unknown> {
  const env = process.env;
  return {
    seed: env.FC_SEED ? Number(env.FC_SEED) : seed,
    numRuns: env.FC_RUNS ? Number(env.FC_RUNS) : numRuns,
  };
}

const PROPERTY_TIMEOUT = 180_000;

interface Scenario {
  repository: Record<string, Json>;
  organization: Record<string, Json>;
}

const scenario: fc.Arbitrary<Scenario> = fc.record({
  repository: rulesets("repository", ["one", "two", "release tags"]),
  organization: rulesets("organization", ["org one", "acme baseline"]),
});

function yamlOf(s: Scenario): string {
  return stringify({
    version: 1,
    repositories: [{ name: "acme/api", rulesets: s.repository }],
    organizations: [{ name: "acme", rulesets: s.organization }],
  });
}

/** Applies a desired state, after checking every body its plan sends against GitHub's request schema. */
async function applied(world: RunningSandbox, yaml: string) {
  checkRulesetBodies(await planned(world, yaml));
  const result = await runInProcess([
    "apply",
    "-c",
    configFile(yaml),
    "--sandbox-url",
    world.url,
    "--auto-approve",
  ]);
  expect(result.stderr).toBe("");
  expect(result.stdout).not.toContain("✗");
  expect(result.code).toBe(0);
}

async function planned(world: RunningSandbox, yaml: string): Promise<Plan> {
  const result = await runInProcess([
    "plan",
    "-c",
    configFile(yaml),
    "--sandbox-url",
    world.url,
    "--format",
    "json",
  ]);
  const plan = JSON.parse(result.stdout) as Plan;
  expect(plan.changes.filter((change) => change.error)).toEqual([]);
  return plan;
}

function pending(plan: Plan) {
  return plan.changes
    .filter((change) => change.action !== "no-op")
    .map(({ address, action, diff }) => ({ address, action, diff }));
}

async function withWorld(run: (world: RunningSandbox) => Promise<void>): Promise<void> {
  const world = await sandbox();
  try {
    await run(world);
  } finally {
    await world.stop();
  }
}

/** A change made on the service behind forgeplan's back, and the field path the plan must show. */
type Mutation = "enforcement" | "drop a rule" | "exclude a ref";

/** A PUT of the test's own, checked against GitHub's request schema like forgeplan's. */
async function put(world: RunningSandbox, path: string, body: Json) {
  expect(bodyProblems("PUT", path, body)).toEqual([]);
  expect((await call(world, "PUT", path, { body: body })).status).toBe(200);
}

async function mutate(world: RunningSandbox, s: Scenario, which: Mutation, pick: number) {
  const repo = Object.keys(s.repository);
  const name = repo[pick % repo.length]!;
  const listed = (await call(world, "GET", "/repos/acme/api/rulesets?includes_parents=false"))
    .body as Array<{
    id: number;
    name: string;
  }>;
  const id = listed.find((item) => item.name === name)!.id;
  const path = `/repos/acme/api/rulesets/${id}`;
  const live = (await call(world, "GET", path)).body as {
    enforcement: string;
    target: string;
    conditions: Json | null;
    rules: Array<{ type: string }>;
  };
  const address = `github/acme/api/ruleset/${name}`;
  if (which === "drop a rule" && live.rules.length > 0) {
    const [dropped, ...rest] = live.rules;
    // GitHub answers a parameter its request schema lacks; a client sends the rules without it.
    const sent = rest.map((rule) => {
      const { automatic_copilot_code_review_enabled: _, ...parameters } =
        ((rule as Json).parameters as Json | undefined) ?? {};
      return rule.type === "pull_request" ? { ...rule, parameters } : rule;
    });
    await put(world, path, { rules: sent });
    return { address, prefix: `rules.${dropped!.type}` };
  }
  if (which === "exclude a ref" && live.target !== "push") {
    const refName = (live.conditions?.ref_name ?? { include: [], exclude: [] }) as Json;
    const conditions = { ...live.conditions, ref_name: { ...refName, exclude: ["refs/mutated"] } };
    await put(world, path, { conditions });
    return { address, prefix: "conditions.ref_name.exclude" };
  }
  const enforcement = live.enforcement === "active" ? "disabled" : "active";
  await put(world, path, { enforcement });
  return { address, prefix: "enforcement" };
}

describe("rulesets converge (property-based)", () => {
  it(
    "applies random rulesets over random live ones and re-plans them as no change",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, scenario, (before, after) =>
          withWorld(async (world) => {
            await applied(world, yamlOf(before));
            await applied(world, yamlOf(after));
            expect(pending(await planned(world, yamlOf(after)))).toEqual([]);
          }),
        ),
        runs(20261101, 25),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    "shows a random live change as exactly the fields it touched",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          scenario,
          fc.constantFrom<Mutation>("enforcement", "drop a rule", "exclude a ref"),
          fc.nat(),
          (s, which, pick) =>
            withWorld(async (world) => {
              const yaml = yamlOf(s);
              await applied(world, yaml);
              const { address, prefix } = await mutate(world, s, which, pick);
              const shown = pending(await planned(world, yaml));
              expect(shown.map((change) => [change.address, change.action])).toEqual([
                [address, "update"],
              ]);
              const paths = shown[0]!.diff.map((entry) => entry.path);
              expect(paths.length).toBeGreaterThan(0);
              expect(paths.filter((path) => !path.startsWith(prefix))).toEqual([]);
            }),
        ),
        runs(20261102, 20),
      );
    },
    PROPERTY_TIMEOUT,
  );
});
