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
import { call, configFile, sandbox } from "../helpers/sandbox.js";

type Json = Record<string, unknown>;
type Target = "branch" | "tag" | "push";
type Level = "repository" | "organization";

function runs(seed: number, numRuns: number): fc.Parameters<unknown> {
  const env = process.env;
  return {
    seed: env.FC_SEED ? Number(env.FC_SEED) : seed,
    numRuns: env.FC_RUNS ? Number(env.FC_RUNS) : numRuns,
  };
}

const PROPERTY_TIMEOUT = 180_000;
const bool = fc.boolean();
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const some = <T>(values: readonly T[], min = 0) => fc.subarray([...values], { minLength: min });

/** Drops undefined members, as YAML would never hold them. */
function compact(value: Json): Json {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined));
}

const pattern = fc
  .record({
    operator: fc.constantFrom("starts_with", "ends_with", "contains", "regex"),
    pattern: fc.constantFrom("v", "^rel", "acme", "fix"),
    negate: optional(bool),
    name: optional(fc.constantFrom("", "rule")),
  })
  .map(compact);

const pullRequest = (level: Level) =>
  fc
    .record({
      required_approving_review_count: optional(fc.integer({ min: 0, max: 10 })),
      dismiss_stale_reviews_on_push: optional(bool),
      require_code_owner_review: optional(bool),
      require_last_push_approval: optional(bool),
      required_review_thread_resolution: optional(bool),
      allowed_merge_methods: optional(some(["merge", "squash", "rebase"], 1)),
      dismissal_restriction: optional(
        fc
          .record({
            enabled: optional(bool),
            allowed_actors: optional(
              some([{ team: "platform" }, { role: "write" }, { role: "admin" }, { app: "ci-bot" }]),
            ),
          })
          .map(compact),
      ),
      required_reviewers: optional(
        some([
          { team: "platform", file_patterns: ["src/**"], minimum_approvals: 1 },
          {
            team: "release-managers",
            file_patterns: ["*.md", "docs/**"],
            minimum_approvals: level === "repository" ? 0 : 2,
          },
        ]),
      ),
    })
    .map(compact);

/** Every managed rule type with random parameters; which ones a target takes is decided below. */
const RULES = (level: Level): Record<string, fc.Arbitrary<unknown>> => ({
  creation: fc.constant(true),
  update: fc.oneof(
    fc.constant(true),
    fc.record({ update_allows_fetch_and_merge: optional(bool) }).map(compact),
  ),
  deletion: fc.constant(true),
  required_linear_history: fc.constant(true),
  required_signatures: fc.constant(true),
  non_fast_forward: fc.constant(true),
  pull_request: pullRequest(level),
  required_status_checks: fc
    .record({
      strict_required_status_checks_policy: optional(bool),
      do_not_enforce_on_create: optional(bool),
      required_status_checks: optional(
        some([
          { context: "ci/build", integration_id: 15368 },
          { context: "lint" },
          { context: "ci/build" },
        ]).filter((checks) => checks.filter((check) => check.context === "ci/build").length < 2),
      ),
    })
    .map(compact),
  merge_queue: fc
    .record({
      check_response_timeout_minutes: optional(fc.integer({ min: 1, max: 360 })),
      grouping_strategy: optional(fc.constantFrom("ALLGREEN", "HEADGREEN")),
      max_entries_to_build: optional(fc.integer({ min: 0, max: 100 })),
      merge_method: optional(fc.constantFrom("MERGE", "SQUASH", "REBASE")),
      min_entries_to_merge_wait_minutes: optional(fc.integer({ min: 0, max: 360 })),
    })
    .map(compact),
  required_deployments: fc.record({
    required_deployment_environments: some(["staging", "production", "qa"]),
  }),
  commit_message_pattern: pattern,
  commit_author_email_pattern: pattern,
  committer_email_pattern: pattern,
  branch_name_pattern: pattern,
  tag_name_pattern: pattern,
  code_scanning: fc.record({
    code_scanning_tools: some(
      [
        { tool: "CodeQL", alerts_threshold: "errors", security_alerts_threshold: "high_or_higher" },
        { tool: "Semgrep", alerts_threshold: "all", security_alerts_threshold: "none" },
      ],
      1,
    ),
  }),
  workflows: fc
    .record({
      do_not_enforce_on_create: optional(bool),
      workflows: some(
        [
          { path: ".github/workflows/ci.yml", repository_id: 1001 },
          { path: ".github/workflows/audit.yml", repository_id: 1002, ref: "refs/heads/main" },
        ],
        1,
      ),
    })
    .map(compact),
  file_path_restriction: fc.record({
    restricted_file_paths: some(["secrets/", ".env", "keys/*"], 1),
  }),
  max_file_size: fc.record({ max_file_size: fc.integer({ min: 1, max: 100 }) }),
  file_extension_restriction: fc.record({
    restricted_file_extensions: some(["*.exe", "*.zip", "*.jar"], 1),
  }),
  max_file_path_length: fc.record({ max_file_path_length: fc.integer({ min: 1, max: 32767 }) }),
});

const PUSH = [
  "file_path_restriction",
  "max_file_size",
  "file_extension_restriction",
  "max_file_path_length",
];
const BRANCH_ONLY = [
  "pull_request",
  "required_status_checks",
  "merge_queue",
  "required_deployments",
  "required_linear_history",
  "workflows",
  "code_scanning",
  "branch_name_pattern",
];

function ruleTypes(target: Target, level: Level): string[] {
  return Object.keys(RULES(level)).filter((type) => {
    if (level === "organization" && type === "merge_queue") return false;
    if (target === "push") return PUSH.includes(type);
    if (PUSH.includes(type)) return false;
    return target === "tag" ? !BRANCH_ONLY.includes(type) : type !== "tag_name_pattern";
  });
}

const ACTORS = [
  { role: "admin" },
  { role: "maintain" },
  { role: "write" },
  { role: "OrganizationAdmin" },
  { team: "platform" },
  { team: "release-managers" },
  { app: "ci-bot" },
  { deploy_keys: true },
];

const REFS: Record<Target, string[]> = {
  branch: ["~DEFAULT_BRANCH", "~ALL", "refs/heads/main", "refs/heads/release/*"],
  tag: ["~ALL", "refs/tags/v*", "refs/tags/rc-*"],
  push: [],
};

function ruleset(level: Level): fc.Arbitrary<Json> {
  return fc.constantFrom<Target>("branch", "tag", "push").chain((target) => {
    const types = ruleTypes(target, level);
    const rules = RULES(level);
    const actors = ACTORS.filter((actor) => level === "repository" || !("deploy_keys" in actor));
    const refName =
      target === "push"
        ? fc.constant(undefined)
        : optional(
            fc
              .record({
                include: optional(some(REFS[target])),
                exclude: optional(some(REFS[target])),
              })
              .map(compact),
          );
    const targeting =
      level === "repository"
        ? fc.constant({})
        : fc.oneof(
            fc.record({
              repository_name: fc
                .record({
                  include: optional(some(["~ALL", "api", "web*"])),
                  exclude: optional(some(["legacy-*", "web"])),
                  protected: optional(bool),
                })
                .map(compact),
            }),
            fc.record({
              repository_property: fc
                .record({
                  include: optional(some([{ name: "tier", property_values: ["gold"] }])),
                  exclude: optional(
                    some([{ name: "archived", property_values: ["yes"], source: "custom" }]),
                  ),
                })
                .map(compact),
            }),
          );
    return fc
      .record({
        target: fc.constantFrom(target, ...(target === "branch" ? [undefined] : [])),
        enforcement: optional(fc.constantFrom("active", "evaluate", "disabled")),
        refName,
        targeting,
        bypass: some(actors).chain((chosen) =>
          fc.tuple(
            ...chosen.map((actor) =>
              fc
                .constantFrom<string | undefined>(
                  undefined,
                  "always",
                  "exempt",
                  ...(target === "branch" && !("deploy_keys" in actor) ? ["pull_request"] : []),
                )
                .map((mode) => compact({ ...actor, bypass_mode: mode })),
            ),
          ),
        ),
        rules: some(types).chain((picked) =>
          fc.tuple(...picked.map((type) => rules[type]!.map((value) => [type, value] as const))),
        ),
      })
      .map(
        ({
          target: written,
          enforcement,
          refName: ref,
          targeting: repos,
          bypass,
          rules: picked,
        }) => {
          const conditions = compact({ ...(ref === undefined ? {} : { ref_name: ref }), ...repos });
          return compact({
            target: written,
            enforcement,
            conditions: Object.keys(conditions).length > 0 ? conditions : undefined,
            bypass_actors: bypass.length > 0 ? bypass : undefined,
            rules: picked.length > 0 ? Object.fromEntries(picked) : undefined,
          });
        },
      );
  });
}

const rulesets = (level: Level, names: string[]) =>
  fc
    .uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 2 })
    .chain((chosen) =>
      fc.tuple(...chosen.map((name) => ruleset(level).map((value) => [name, value] as const))),
    )
    .map((entries) => Object.fromEntries(entries));

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
