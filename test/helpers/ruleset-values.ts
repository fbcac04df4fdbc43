/**
 * Random rulesets as a configuration writes them (`rulesets: {<name>: …}`), every managed rule type
 * with random parameters, targets, conditions and bypass actors drawn from the demo world's names,
 * so the service accepts every one. Shared by the properties that converge rulesets and that plan
 * them over REST and GraphQL alike.
 */
import fc from "fast-check";

type Json = Record<string, unknown>;
export type Target = "branch" | "tag" | "push";
export type Level = "repository" | "organization";
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

export function ruleset(level: Level): fc.Arbitrary<Json> {
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

export const rulesets = (level: Level, names: string[]) =>
  fc
    .uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 2 })
    .chain((chosen) =>
      fc.tuple(...chosen.map((name) => ruleset(level).map((value) => [name, value] as const))),
    )
    .map((entries) => Object.fromEntries(entries));
