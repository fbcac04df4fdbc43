/**
 * The proof of "no perpetual diffs": random valid desired states are applied to the sandbox through
 * the engine and re-planned (zero changes), random live mutations are detected as exactly the managed
 * fields they touch, and applying a plan of no-op changes sends nothing.
 *
 * Every run starts a fresh sandbox (a few milliseconds) and first writes a random live state over
 * plain HTTP, so runs are independent and a shrunk counterexample replays exactly. Seeds are fixed; on
 * a failure fast-check prints the seed, the path and the shrunk counterexample. To explore further:
 * `FC_SEED=7 FC_RUNS=500 npx vitest run test/integration/convergence.test.ts`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { mutatingRequests, pendingChanges, sandboxEngine } from "../helpers/engine.js";
import { type LiveRepo, resetHooks, setProtection } from "../helpers/live.js";
import { type Expected, mutate, mutations } from "../helpers/mutations.js";
import { configFile, sandbox } from "../helpers/sandbox.js";
import {
  AUTH,
  desiredEntry,
  REPOS,
  type Scenario,
  scenarios,
  SECRET,
  SECRET_ENV,
} from "../helpers/scenarios.js";

function runs(seed: number, numRuns: number): fc.Parameters<unknown> {
  const env = process.env;
  return {
    seed: env.FC_SEED ? Number(env.FC_SEED) : seed,
    numRuns: env.FC_RUNS ? Number(env.FC_RUNS) : numRuns,
  };
}

/**
 * A run takes tens of milliseconds; the allowance is for shrinking a failure (each step replays a
 * whole run) and for FC_RUNS explorations, so the counterexample is printed rather than cut off.
 */
const PROPERTY_TIMEOUT = 180_000;

async function withWorld<T>(
  s: Scenario,
  run: (world: RunningSandbox, live: LiveRepo) => Promise<T>,
): Promise<T> {
  const world = await sandbox(s.repo.world);
  try {
    return await run(world, { world, token: s.repo.token, owner: s.repo.owner, name: s.repo.name });
  } finally {
    await world.stop();
  }
}

async function setLiveState(live: LiveRepo, s: Scenario): Promise<void> {
  await Promise.all([
    ...s.repo.branches.map((branch, index) =>
      setProtection(live, branch, s.liveProtections[index] ?? null),
    ),
    resetHooks(
      live,
      s.liveHooks.filter((hook) => hook !== null),
    ),
  ]);
}

/** A plan's pending work as a reviewer would need to see it. */
function pending(plan: Plan) {
  return pendingChanges(plan).map(({ address, action, diff, requests }) => ({
    address,
    action,
    diff,
    requests,
  }));
}

function errorsOf(plan: Plan) {
  return plan.changes.filter((change) => change.error).map((c) => [c.address, c.error]);
}

/** Writes the scenario's live state, then plans and applies its desired state; returns the re-plan. */
async function converge(world: RunningSandbox, live: LiveRepo, s: Scenario) {
  await setLiveState(live, s);
  const engine = sandboxEngine(world, s.repo.token);
  // What is proven here is normalization: an authoritative hook list may remove every live hook, so
  // the removal limit (proven in its own tests) is lifted.
  const state = { ...engine.state([desiredEntry(s)]), removalLimit: { share: 100 } };
  const first = await engine.plan(state);
  expect(errorsOf(first)).toEqual([]);
  const outcomes = await engine.apply(first, { allowDelete: true, secrets: [SECRET, AUTH] });
  expect(outcomes.filter((outcome) => outcome.outcome !== "applied")).toEqual([]);
  const again = await engine.plan(state);
  expect(errorsOf(again)).toEqual([]);
  return { engine, state, again };
}

/** Sections that are null when off; when one appears or disappears the plan lists its fields. */
type DiffEntry = Plan["changes"][number]["diff"][number];

/** Parts that appear and go as a whole, the outermost first. */
const SECTIONS = [
  "required_status_checks",
  "required_pull_request_reviews",
  "required_pull_request_reviews.dismissal_restrictions",
  "restrictions",
];

const oneSided = (entry: DiffEntry) => (entry.before === undefined) !== (entry.after === undefined);
const within = (entry: DiffEntry) =>
  SECTIONS.filter((section) => entry.path.startsWith(`${section}.`));

/** The paths a change shows its mutations under: a field of a section that came or went is the section. */
function pathsShown(diff: readonly DiffEntry[]): string[] {
  // A section came or went when a field of its own (not of a section inside it) shows one-sided.
  const whole = new Set(diff.filter(oneSided).map((entry) => within(entry).at(-1)));
  const shown = diff.map((entry) => {
    const section = within(entry).find((name) => whole.has(name));
    return section !== undefined && oneSided(entry) ? section : entry.path;
  });
  return [...new Set(shown)].sort();
}

function shownAs(plan: Plan): Expected {
  const shown: Expected = {};
  for (const change of pendingChanges(plan)) {
    shown[change.address] =
      change.action === "update"
        ? { action: "update", paths: pathsShown(change.diff) }
        : { action: change.action };
  }
  return shown;
}

describe("convergence against the sandbox (property-based)", () => {
  it(
    "applies random valid desired states and re-plans them as no change",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenarios(), (s) =>
          withWorld(s, async (world, live) => {
            const { again } = await converge(world, live, s);
            expect(pending(again)).toEqual([]);
          }),
        ),
        runs(20260401, 100),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    "detects random live mutations as exactly the managed fields they touch",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenarios(), mutations, (s, m) =>
          withWorld(s, async (world, live) => {
            const { engine, state, again } = await converge(world, live, s);
            expect(pending(again)).toEqual([]);
            const expected = await mutate(live, s, m);
            const detected = await engine.plan(state);
            expect(errorsOf(detected)).toEqual([]);
            expect(shownAs(detected)).toEqual(expected);
          }),
        ),
        runs(20260402, 100),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    "applies a plan of no-op changes without a single mutating request",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenarios(), (s) =>
          withWorld(s, async (world, live) => {
            const { engine, state, again } = await converge(world, live, s);
            const applied = world.stats().mutations_applied;
            const writes = mutatingRequests(world);
            const outcomes = await engine.apply(again, {
              allowDelete: true,
              secrets: [SECRET, AUTH],
            });
            expect(outcomes).toEqual([]);
            expect(mutatingRequests(world)).toBe(writes);
            expect(world.stats().mutations_applied).toBe(applied);
            expect(pending(await engine.plan(state))).toEqual([]);
          }),
        ),
        runs(20260403, 30),
      );
    },
    PROPERTY_TIMEOUT,
  );
});

/** The desired state as a user writes it: the same fields, secrets as ${NAME} references. */
function yamlOf(s: Scenario): string {
  const entry = desiredEntry(s);
  const hooks = entry.settings.webhooks.hooks.map(({ secret, authorization_header, ...hook }) => ({
    ...hook,
    ...(secret ? { secret: `\${${secret.source}}` } : {}),
    ...(authorization_header ? { authorization_header: `\${${authorization_header.source}}` } : {}),
  }));
  return stringify({
    version: 1,
    repositories: [
      {
        name: `${s.repo.owner}/${s.repo.name}`,
        branch_protection: entry.settings.branch_protection,
        webhooks: { mode: s.mode, hooks },
      },
    ],
  });
}

/** apply then plan through the CLI, as a user runs them against a sandbox. */
async function applyThenPlan(world: RunningSandbox, yaml: string) {
  const path = configFile(yaml);
  const at = ["--sandbox-url", world.url];
  const applied = await runInProcess(
    ["apply", "-c", path, ...at, "--auto-approve", "--allow-delete", "--removal-limit", "100"],
    { env: SECRET_ENV },
  );
  const planned = await runInProcess(["plan", "-c", path, ...at, "--format", "json"], {
    env: SECRET_ENV,
  });
  return { applied, planned };
}

describe("convergence through the CLI", () => {
  // The CLI's --sandbox-url connects as the demo world's admin, so only acme's repositories.
  const acme = REPOS.filter((repo) => repo.owner === "acme");

  it(
    "applies a random YAML desired state with the apply command and plans it as no change",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenarios(acme), (s) =>
          withWorld(s, async (world, live) => {
            await setLiveState(live, s);
            const { applied, planned } = await applyThenPlan(world, yamlOf(s));
            expect(applied.stderr).toBe("");
            expect(applied.code).toBe(0);
            expect(pending(JSON.parse(planned.stdout) as Plan)).toEqual([]);
            expect(planned.code).toBe(0);
          }),
        ),
        runs(20260404, 6),
      );
    },
    PROPERTY_TIMEOUT,
  );
});

/**
 * Minimal counterexamples the properties above found: each was accepted by the loader and then planned
 * the same update forever. Each case passes when the loader refuses the value or the value converges.
 */
describe("values that once never converged: refused at load or converging now", () => {
  async function refusedOrConverges(yaml: string): Promise<void> {
    const world = await sandbox({ generate: 1 });
    try {
      const validated = await runInProcess(["validate", "-c", configFile(yaml)]);
      if (validated.code === 1) return;
      const { applied, planned } = await applyThenPlan(world, yaml);
      expect(applied.stdout).not.toContain("did not keep what was written");
      expect(applied.code).toBe(0);
      expect(pending(JSON.parse(planned.stdout) as Plan)).toEqual([]);
    } finally {
      await world.stop();
    }
  }

  it("a webhook config value that is the empty string", async () => {
    // The service removes a config key sent as "" (docs/service-decisions.md), so it reads back absent.
    await refusedOrConverges(`version: 1
repositories:
  - name: acme/repo-0001
    webhooks:
      hooks:
        - url: https://ci.acme.example/hooks/forge
          config: { x-team: "" }
`);
  });

  it("an empty branch_filter", async () => {
    // Read back, "" normalizes to "*"; the desired "" is compared as written.
    await refusedOrConverges(`version: 1
repositories:
  - name: acme/repo-0001
    webhooks:
      hooks:
        - { url: https://ci.acme.example/hooks/forge, branch_filter: "" }
`);
  });

  it("one status check context listed twice with different apps", async () => {
    // The service keeps one check per context; the plan keeps one per (context, app).
    await refusedOrConverges(`version: 1
repositories:
  - name: acme/api
    branch_protection:
      release:
        required_status_checks:
          strict: true
          checks: [{ context: ci/build, app_id: -1 }, { context: ci/build, app_id: 15368 }]
`);
  });
});
