import { expect } from "vitest";
import type { Plan, PlannedRequest } from "../../src/core/plan.js";
import { check, requestSchema, undeclared } from "../sandbox/openapi-check.js";

/**
 * A desired state against the demo world with repository and organization rulesets that together
 * use every rule type forgeplan manages, every kind of bypass actor and every kind of condition.
 */
export const EVERY_RULE_TYPE = `version: 1
repositories:
  - name: acme/api
    rulesets:
      branches:
        conditions:
          ref_name: { include: ["~DEFAULT_BRANCH", "refs/heads/release/**"], exclude: ["refs/heads/release/old-*"] }
        bypass_actors:
          - { role: admin }
          - { role: maintain, bypass_mode: pull_request }
          - { role: write, bypass_mode: exempt }
          - { role: OrganizationAdmin }
          - { team: platform }
          - { app: ci-bot }
          - { deploy_keys: true }
        rules:
          creation: true
          update: { update_allows_fetch_and_merge: true }
          deletion: true
          required_linear_history: true
          required_signatures: true
          non_fast_forward: true
          pull_request:
            required_approving_review_count: 2
            dismiss_stale_reviews_on_push: true
            require_code_owner_review: true
            require_last_push_approval: true
            required_review_thread_resolution: true
            allowed_merge_methods: [squash, rebase]
            dismissal_restriction:
              allowed_actors: [{ role: maintain }, { team: release-managers }, { app: ci-bot }]
            required_reviewers:
              - { team: platform, file_patterns: ["src/**", "*.md"], minimum_approvals: 1 }
          required_status_checks:
            strict_required_status_checks_policy: true
            do_not_enforce_on_create: true
            required_status_checks: [{ context: ci/build, integration_id: 15368 }, { context: lint }]
          merge_queue:
            check_response_timeout_minutes: 30
            grouping_strategy: HEADGREEN
            max_entries_to_build: 10
            max_entries_to_merge: 3
            merge_method: SQUASH
            min_entries_to_merge: 2
            min_entries_to_merge_wait_minutes: 10
          required_deployments: { required_deployment_environments: [staging, production] }
          commit_message_pattern: { operator: starts_with, pattern: "feat", negate: true, name: no feat }
          commit_author_email_pattern: { operator: ends_with, pattern: "@acme.example" }
          committer_email_pattern: { operator: contains, pattern: "acme" }
          branch_name_pattern: { operator: regex, pattern: "^[a-z0-9/-]+$" }
          code_scanning:
            code_scanning_tools:
              - { tool: CodeQL, alerts_threshold: errors, security_alerts_threshold: high_or_higher }
          workflows:
            do_not_enforce_on_create: true
            workflows: [{ path: .github/workflows/ci.yml, repository_id: 1001, ref: refs/heads/main }]
      tags:
        target: tag
        enforcement: evaluate
        conditions: { ref_name: { include: ["refs/tags/v*"] } }
        bypass_actors: [{ team: release-managers }]
        rules:
          creation: true
          update: true
          deletion: true
          non_fast_forward: true
          required_signatures: true
          tag_name_pattern: { operator: regex, pattern: "^v[0-9]+" }
          commit_message_pattern: { operator: contains, pattern: "release" }
      files:
        target: push
        enforcement: disabled
        rules:
          file_path_restriction: { restricted_file_paths: [secrets/, .env] }
          max_file_size: { max_file_size: 50 }
          file_extension_restriction: { restricted_file_extensions: ["*.exe", "*.dll"] }
          max_file_path_length: { max_file_path_length: 255 }
organizations:
  - name: acme
    rulesets:
      acme baseline:
        conditions:
          ref_name: { include: ["~DEFAULT_BRANCH"] }
          repository_name: { include: ["~ALL"], exclude: [legacy-*], protected: true }
        bypass_actors: [{ role: OrganizationAdmin }, { team: platform, bypass_mode: pull_request }]
        rules:
          deletion: true
          non_fast_forward: true
          pull_request: { required_approving_review_count: 1 }
          required_status_checks:
            required_status_checks: [{ context: ci/build }]
      gold tags:
        target: tag
        conditions:
          ref_name: { include: ["~ALL"] }
          repository_property:
            include: [{ name: tier, property_values: [gold, silver] }]
            exclude: [{ name: archived, property_values: ["yes"], source: custom }]
        rules: { deletion: true, tag_name_pattern: { operator: starts_with, pattern: v } }
      org files:
        target: push
        conditions: { repository_name: { include: ["~ALL"] } }
        bypass_actors: [{ app: ci-bot }]
        rules: { max_file_size: { max_file_size: 10 }, file_extension_restriction: { restricted_file_extensions: ["*.zip"] } }
`;

/** Every request of a plan with its change's address. */
export function requestsOf(plan: Plan): Array<PlannedRequest & { address: string }> {
  return plan.changes.flatMap((change) =>
    change.requests.map((request) => ({ ...request, address: change.address })),
  );
}

/** The OpenAPI path template of a ruleset request path. */
export function operationOf(path: string): string {
  return path
    .replace(/^\/repos\/[^/]+\/[^/]+\/rulesets/, "/repos/{owner}/{repo}/rulesets")
    .replace(/^\/orgs\/[^/]+\/rulesets/, "/orgs/{org}/rulesets")
    .replace(/\/rulesets\/\d+$/, "/rulesets/{ruleset_id}");
}

/** The problems of a ruleset request body against its operation's request schema, undeclared members included. */
export function bodyProblems(method: string, path: string, body: unknown): string[] {
  const schema = requestSchema(operationOf(path.split("?")[0]!), method.toLowerCase());
  return [...check(schema, body), ...undeclared(schema, body)];
}

/** Checks every ruleset body of a plan against GitHub's request schema; returns how many. */
export function checkRulesetBodies(plan: Plan): number {
  let checked = 0;
  for (const request of requestsOf(plan)) {
    if (request.body === undefined || !request.path.includes("/rulesets")) continue;
    expect(
      bodyProblems(request.method, request.path, request.body),
      `${request.method} ${request.path}`,
    ).toEqual([]);
    checked++;
  }
  return checked;
}
