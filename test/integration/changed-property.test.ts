/**
 * The plan of a change is exact: for random pairs of configurations (the second an edit of the
 * first: a protection, a hook list, a profile, the defaults, a `where`, an entry added or removed),
 * every change the PR-scoped plan shows is the whole plan's change at that address, and every change
 * of the whole plan it leaves out is planned the same from the first configuration — so nothing the
 * edit affects is left out and nothing it does not affect is shown.
 *
 * The sandbox is only read. To explore further:
 * `FC_SEED=7 FC_RUNS=300 npx vitest run test/integration/changed-property.test.ts`.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { DesiredState } from "../../src/config/model.js";
import type { Change } from "../../src/core/plan.js";
import { Secret } from "../../src/core/secret.js";
import { planChanged } from "../../src/engine/changed.js";
import { loadDesiredState } from "../../src/engine/desired.js";
import { buildPlan } from "../../src/engine/plan.js";
import { ForgeClient } from "../../src/forge/client.js";
import { ResourceReader } from "../../src/resources/context.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { sandbox } from "../helpers/sandbox.js";

const REPOS = ["api", "web", "repo-0001", "repo-0002", "repo-0003", "repo-0004"];
const HOOKS = ["https://ci.acme.example/hooks/forge", "https://chat.acme.example/notify"];

const protection = fc.oneof(
  fc.constant(null),
  fc.record({
    required_status_checks: fc.constant(null),
    enforce_admins: fc.boolean(),
    required_pull_request_reviews: fc.oneof(
      fc.constant(null),
      fc.record({ required_approving_review_count: fc.integer({ min: 0, max: 2 }) }),
    ),
    restrictions: fc.constant(null),
  }),
);

const settings = fc.record(
  {
    branch_protection: fc.record({ main: protection, dev: protection }, { requiredKeys: [] }),
    webhooks: fc.record({
      hooks: fc.uniqueArray(
        fc.record({
          url: fc.constantFrom(...HOOKS),
          events: fc.constantFrom(["push"], ["issues"]),
        }),
        { selector: (hook) => hook.url, maxLength: 2 },
      ),
    }),
  },
  { requiredKeys: [] },
);

/** One part of a configuration, and whether the edit keeps it or writes it anew. */
const part = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.record({ base: arbitrary, head: arbitrary, kept: fc.boolean() });

const pair = fc.record({
  defaults: part(fc.option(settings, { nil: undefined })),
  profile: part(settings),
  glob: part(
    fc.record({
      where: fc.option(fc.constantFrom("team-01", "team-02"), { nil: undefined }),
      usesProfile: fc.boolean(),
      own: settings,
    }),
  ),
  named: fc.uniqueArray(
    fc.record({
      repo: fc.constantFrom(...REPOS),
      value: part(fc.option(settings, { nil: undefined })),
    }),
    { selector: (entry) => entry.repo, maxLength: 3 },
  ),
});

type Pair = typeof pair extends fc.Arbitrary<infer T> ? T : never;

function config(edit: Pair, side: "base" | "head"): string {
  const pick = <T>(value: { base: T; head: T; kept: boolean }) =>
    value.kept || side === "base" ? value.base : value.head;
  const glob = pick(edit.glob);
  const document = {
    version: 1,
    ...(pick(edit.defaults) === undefined ? {} : { defaults: pick(edit.defaults) }),
    profiles: { shared: pick(edit.profile) },
    repositories: [
      {
        name: "acme/repo-*",
        ...(glob.where === undefined ? {} : { where: { properties: { team: glob.where } } }),
        ...(glob.usesProfile ? { profiles: ["shared"] } : {}),
        ...glob.own,
      },
      ...edit.named.flatMap(({ repo, value }) => {
        const own = pick(value);
        return own === undefined ? [] : [{ name: `acme/${repo}`, ...own }];
      }),
    ],
  };
  return stringify(document);
}

function load(text: string): DesiredState {
  const result = loadDesiredState(["forgeplan.yaml"], {
    cwd: "/",
    env: {},
    readFile: () => text,
  });
  if (!result.ok) throw new Error(`generated an invalid config: ${result.errors[0]?.message}`);
  return result.state;
}

const work = (change: Change) => ({
  action: change.action,
  requests: change.requests,
  error: change.error,
});

let world: RunningSandbox;
let readers: Map<string, ResourceReader>;
beforeAll(async () => {
  // Hundreds of plans of a few repositories read more than the default budgets allow.
  const budget = 10_000_000;
  world = await sandbox({
    generate: 4,
    rateLimits: { core: budget },
    secondaryPointsPerMinute: budget,
  });
  const client = new ForgeClient({
    baseUrl: world.url,
    kind: "repository",
    token: new Secret("sandbox-admin", "sandbox"),
    writeIntervalMs: 0,
    pointsPerMinute: budget,
  });
  readers = new Map([["github", new ResourceReader("github", client)]]);
});
afterAll(async () => {
  await world.stop();
});

describe("the plan of a change", () => {
  it("shows exactly the whole plan's changes the edit affects", async () => {
    await fc.assert(
      fc.asyncProperty(pair, async (edit) => {
        const base = load(config(edit, "base"));
        const head = load(config(edit, "head"));
        const now = Date.parse("2026-07-01T00:00:00Z");
        const [whole, before, changed] = await Promise.all([
          buildPlan({ state: head, readers, now }),
          buildPlan({ state: base, readers, now }),
          planChanged({ base, head, changedFrom: "base", readers, now }),
        ]);
        const wholeBy = new Map(whole.changes.map((change) => [change.address, change]));
        const beforeBy = new Map(before.changes.map((change) => [change.address, change]));
        const shown = new Set(changed.changes.map((change) => change.address));
        for (const change of changed.changes) {
          const same = wholeBy.get(change.address);
          expect(same && work(same)).toEqual(work(change));
          const diff = change.diff.map(({ preexisting: _preexisting, ...entry }) => entry);
          expect(diff).toEqual(same?.diff);
        }
        for (const change of whole.changes) {
          if (shown.has(change.address)) continue;
          const earlier = beforeBy.get(change.address);
          expect(earlier && work(earlier), change.address).toEqual(work(change));
        }
      }),
      {
        seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : 11,
        numRuns: process.env.FC_RUNS ? Number(process.env.FC_RUNS) : 40,
      },
    );
  }, 180_000);
});
