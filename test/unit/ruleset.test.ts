import { describe, expect, it } from "vitest";
import {
  UNPROTECTED_DEFAULTS,
  type CanonicalProtection,
} from "../../src/resources/classic-protection.js";
import { normalizeRuleset, requestBody, shown } from "../../src/resources/ruleset/canonical.js";
import {
  notEquivalent,
  replacementFor,
  requirementsOf,
  uncovered,
} from "../../src/resources/ruleset/classic.js";
import { verifyWritten } from "../../src/resources/ruleset/verify.js";

const known: Record<string, string> = {
  "Team:2": "release-managers",
  "Integration:15368": "ci-bot",
};
const names = (type: string, id: number | null) => known[`${type}:${id}`];

function normalized(value: unknown, actorsKnown = true) {
  const result = normalizeRuleset(value, actorsKnown);
  if (result.kind !== "ok") throw new Error(JSON.stringify(result));
  return result.ruleset;
}

const sparse = {
  id: 7,
  name: "main",
  enforcement: "active",
  bypass_actors: [
    { actor_id: 1, actor_type: "OrganizationAdmin" },
    { actor_id: 2, actor_type: "Team", bypass_mode: "pull_request" },
  ],
  conditions: { ref_name: { include: ["refs/heads/main", "~DEFAULT_BRANCH"] } },
  rules: [
    { type: "pull_request", parameters: { required_approving_review_count: 2 } },
    {
      type: "required_status_checks",
      parameters: {
        strict_required_status_checks_policy: true,
        required_status_checks: [{ context: "lint" }, { context: "build", integration_id: 15368 }],
      },
    },
    { type: "update" },
    { type: "deletion" },
  ],
};

const explicit = {
  name: "main",
  target: "branch",
  enforcement: "active",
  bypass_actors: [
    { actor_id: 2, actor_type: "Team", bypass_mode: "pull_request" },
    { actor_id: null, actor_type: "OrganizationAdmin", bypass_mode: "always" },
  ],
  conditions: { ref_name: { include: ["~DEFAULT_BRANCH", "refs/heads/main"], exclude: [] } },
  rules: [
    { type: "deletion" },
    { type: "update", parameters: { update_allows_fetch_and_merge: false } },
    {
      type: "required_status_checks",
      parameters: {
        do_not_enforce_on_create: false,
        strict_required_status_checks_policy: true,
        required_status_checks: [{ context: "build", integration_id: 15368 }, { context: "lint" }],
      },
    },
    {
      type: "pull_request",
      parameters: {
        allowed_merge_methods: ["rebase", "squash", "merge"],
        dismiss_stale_reviews_on_push: false,
        dismissal_restriction: { enabled: false, allowed_actors: [{ id: 1, type: "Team" }] },
        require_code_owner_review: false,
        require_last_push_approval: false,
        required_approving_review_count: 2,
        required_review_thread_resolution: false,
        required_reviewers: [],
      },
    },
  ],
};

describe("ruleset normalization", () => {
  it("understands the defaults GitHub fills in and treats lists as sets", () => {
    expect(normalized(sparse)).toEqual(normalized(explicit));
  });

  it("shows actors by name and parameterless rules as true", () => {
    const view = shown(normalized(sparse), names);
    expect(view.bypass_actors).toEqual([
      "OrganizationAdmin (always)",
      "team release-managers (pull_request)",
    ]);
    expect(view.rules.deletion).toBe(true);
    expect(view.rules.update).toEqual({ update_allows_fetch_and_merge: false });
  });

  it("refuses a read without bypass actors and names rule types it does not manage", () => {
    const { bypass_actors: _actors, ...hidden } = sparse;
    expect(normalizeRuleset(hidden, false)).toMatchObject({ kind: "malformed" });
    expect(normalizeRuleset(hidden, true).kind).toBe("ok");
    expect(
      normalizeRuleset(
        { ...sparse, rules: [{ type: "copilot_code_review" }, { type: "deletion" }] },
        true,
      ),
    ).toEqual({ kind: "unmanaged", types: ["copilot_code_review"] });
    expect(
      normalizeRuleset(
        { ...sparse, rules: [{ type: "max_file_size", parameters: { max_file_size: "big" } }] },
        true,
      ),
    ).toEqual({
      kind: "malformed",
      problem: "rules[0].parameters.max_file_size: Invalid input: expected number, received string",
    });
  });

  it("writes conditions as each level takes them; push rulesets target no refs", () => {
    const org = normalized({
      ...explicit,
      conditions: {
        ref_name: { include: ["~ALL"] },
        repository_name: { include: ["~ALL"], exclude: ["legacy-*"] },
      },
    });
    expect(requestBody(org, "organization").conditions).toEqual({
      ref_name: { include: ["~ALL"], exclude: [] },
      repository_name: { include: ["~ALL"], exclude: ["legacy-*"], protected: false },
    });
    expect(requestBody(org, "repository").conditions).toEqual({
      ref_name: { include: ["~ALL"], exclude: [] },
    });
    const push = normalized({ name: "files", target: "push", enforcement: "active", rules: [] });
    expect(requestBody(push, "repository").conditions).toEqual({});
  });
});

const classic: CanonicalProtection = {
  ...UNPROTECTED_DEFAULTS,
  required_status_checks: {
    strict: true,
    checks: [
      { context: "ci/build", app_id: 15368 },
      { context: "lint", app_id: null },
    ],
  },
  required_pull_request_reviews: {
    dismissal_restrictions: { users: ["octo-dev"], teams: ["platform"], apps: ["ci-bot"] },
    dismiss_stale_reviews: true,
    require_code_owner_reviews: false,
    required_approving_review_count: 2,
    require_last_push_approval: true,
    bypass_pull_request_allowances: { users: [], teams: ["release-managers"], apps: [] },
  },
  restrictions: { users: ["octo-dev"], teams: [], apps: [] },
  required_linear_history: true,
  lock_branch: true,
  allow_fork_syncing: true,
  required_conversation_resolution: true,
};

describe("classic protection and rulesets", () => {
  it("carries over exact equivalents only", () => {
    const { settings } = replacementFor("main", classic, true, "active");
    expect(settings).toEqual({
      target: "branch",
      enforcement: "active",
      conditions: { ref_name: { include: ["refs/heads/main"], exclude: [] } },
      bypass_actors: [],
      rules: {
        deletion: true,
        non_fast_forward: true,
        required_linear_history: true,
        required_signatures: true,
        update: { update_allows_fetch_and_merge: true },
        pull_request: {
          required_approving_review_count: 2,
          dismiss_stale_reviews_on_push: true,
          require_code_owner_review: false,
          require_last_push_approval: true,
          required_review_thread_resolution: true,
          dismissal_restriction: {
            enabled: true,
            allowed_actors: [{ team: "platform" }, { app: "ci-bot" }],
          },
        },
        required_status_checks: {
          strict_required_status_checks_policy: true,
          required_status_checks: [
            { context: "ci/build", integration_id: 15368 },
            { context: "lint" },
          ],
        },
      },
      replaces_protection: ["main"],
    });
  });

  it("keeps review dismissal restricted when the classic protection names only users, or nobody", () => {
    const dismissal = (lists: CanonicalProtection["restrictions"]) =>
      replacementFor(
        "main",
        {
          ...classic,
          required_pull_request_reviews: {
            ...classic.required_pull_request_reviews!,
            dismissal_restrictions: lists,
          },
        },
        false,
        "active",
      ).settings.rules?.pull_request?.dismissal_restriction;
    const restricted = { enabled: true, allowed_actors: [] };
    expect(dismissal({ users: [], teams: [], apps: [] })).toEqual(restricted);
    expect(dismissal({ users: ["octo-dev"], teams: [], apps: [] })).toEqual(restricted);
    expect(dismissal(null)).toBeUndefined();
  });

  it("says what has no exact equivalent, and guesses none of it", () => {
    const notes = notEquivalent(classic);
    expect(notes).toHaveLength(4);
    expect(notes[0]).toMatch(/^enforce_admins is off/);
    expect(notes[1]).toMatch(
      /^restrictions on who may push \(users octo-dev\) have no ruleset equivalent/,
    );
    expect(notes[2]).toMatch(
      /^bypass_pull_request_allowances \(teams release-managers\) have no exact equivalent/,
    );
    expect(notes[3]).toMatch(/^review dismissal by users \(octo-dev\) is not migrated/);
    expect(notEquivalent({ ...UNPROTECTED_DEFAULTS, enforce_admins: true })).toEqual([]);
  });

  it("finds what the rules of a branch leave uncovered, taking every rule that applies together", () => {
    const requirements = requirementsOf(classic, false);
    const pr = (count: number, extra: Record<string, boolean> = {}) => ({
      type: "pull_request",
      parameters: { required_approving_review_count: count, ...extra },
    });
    const covering = [
      { type: "deletion" },
      { type: "non_fast_forward" },
      { type: "required_linear_history" },
      { type: "update", parameters: { update_allows_fetch_and_merge: false } },
      pr(1, { dismiss_stale_reviews_on_push: true, required_review_thread_resolution: true }),
      pr(3, { require_last_push_approval: true }),
      {
        type: "required_status_checks",
        parameters: {
          strict_required_status_checks_policy: true,
          required_status_checks: [
            { context: "ci/build", integration_id: 15368 },
            { context: "lint", integration_id: 9 },
          ],
        },
      },
    ];
    expect(uncovered(covering, requirements)).toEqual([]);
    const weaker = [
      ...covering.slice(0, 4),
      pr(1, { dismiss_stale_reviews_on_push: true }),
      {
        type: "required_status_checks",
        parameters: { required_status_checks: [{ context: "ci/build" }] },
      },
    ];
    expect(uncovered(weaker, requirements)).toEqual([
      { path: "pull_request.required_approving_review_count", before: 2, after: 1 },
      { path: "pull_request.require_last_push_approval", before: true, after: false },
      { path: "pull_request.required_review_thread_resolution", before: true, after: false },
      {
        path: "required_status_checks.strict_required_status_checks_policy",
        before: true,
        after: false,
      },
      {
        path: "required_status_checks.required_status_checks[ci/build]",
        before: { context: "ci/build", integration_id: 15368 },
      },
      { path: "required_status_checks.required_status_checks[lint]", before: { context: "lint" } },
    ]);
    expect(uncovered([], [{ type: "deletion" }])).toEqual([{ path: "deletion", before: true }]);
  });

  it("checks the GET of a branch's rules against what the change expects", () => {
    const request = {
      method: "GET" as const,
      path: "/repos/acme/api/rules/branches/main?per_page=100",
      expect: { branch: "main", rules: [{ type: "deletion" }, { type: "non_fast_forward" }] },
    };
    expect(verifyWritten(request, [{ type: "deletion" }, { type: "non_fast_forward" }])).toEqual(
      [],
    );
    expect(verifyWritten(request, [{ type: "deletion" }])).toEqual([
      { path: "rules of branch main: non_fast_forward", before: true },
    ]);
    expect(verifyWritten(request, { message: "oops" })).toEqual([
      { path: "rules of branch main", before: "a list of rules", after: "something else" },
    ]);
  });

  it("compares a ruleset write with what the service answered", () => {
    const body = requestBody(normalized(explicit), "repository");
    const request = { method: "POST" as const, path: "/repos/acme/api/rulesets", body };
    expect(verifyWritten(request, { ...body, id: 3, source: "acme/api" })).toEqual([]);
    const dropped = { ...body, bypass_actors: [] };
    expect(verifyWritten(request, dropped)).toEqual([
      {
        path: "bypass_actors",
        before: ["OrganizationAdmin (always)", "team #2 (pull_request)"],
        after: [],
      },
    ]);
  });
});
