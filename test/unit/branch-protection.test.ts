import { describe, expect, it } from "vitest";
import type { BranchProtectionSettings } from "../../src/resources/branch-protection/settings.js";
import {
  targetOf,
  toBody,
  verifyWritten,
} from "../../src/resources/branch-protection/canonical.js";
import { toSettings } from "../../src/resources/branch-protection/export.js";
import {
  type CanonicalProtection,
  fromRead,
  UNPROTECTED_DEFAULTS,
} from "../../src/resources/classic-protection.js";
import { diffValues } from "../../src/resources/diff.js";
import { githubExample } from "../helpers/github-examples.js";

const live: CanonicalProtection = {
  ...UNPROTECTED_DEFAULTS,
  required_status_checks: { strict: true, checks: [{ context: "ci/build", app_id: 15368 }] },
  required_pull_request_reviews: {
    dismissal_restrictions: null,
    dismiss_stale_reviews: true,
    require_code_owner_reviews: false,
    required_approving_review_count: 1,
    require_last_push_approval: false,
    bypass_pull_request_allowances: { users: [], teams: [], apps: [] },
  },
};

function planDiff(desired: BranchProtectionSettings, current: CanonicalProtection | null = live) {
  return diffValues(current ?? {}, targetOf(desired, current));
}

describe("branch protection normalization", () => {
  it.each(["branch-protection", "protected-branch-admin-enforced-2"])(
    "plans GitHub's documented %s example, written back as desired state, as no change",
    (name) => {
      const read = fromRead(githubExample(name));
      expect(planDiff(toSettings(read), read)).toEqual([]);
    },
  );

  it("reads GitHub's example: wrappers become booleans, principals become lower-cased logins and slugs", () => {
    const read = fromRead(githubExample("branch-protection"));
    expect(read.enforce_admins).toBe(true);
    expect(read.required_linear_history).toBe(true);
    expect(read.required_status_checks).toEqual({
      strict: false,
      checks: [{ context: "continuous-integration/travis-ci", app_id: null }],
    });
    expect(read.restrictions).toEqual({
      users: ["octocat"],
      teams: ["justice-league"],
      apps: ["octoapp"],
    });
    expect(read.required_pull_request_reviews?.required_approving_review_count).toBe(2);
  });

  it("keeps every field the desired state does not write (partial desired state)", () => {
    const diff = planDiff({
      required_pull_request_reviews: { required_approving_review_count: 2 },
    });
    expect(diff).toEqual([
      {
        path: "required_pull_request_reviews.required_approving_review_count",
        before: 1,
        after: 2,
      },
    ]);
  });

  it("treats null, false and absent as one disabled state", () => {
    expect(
      planDiff({ enforce_admins: null, allow_force_pushes: null, lock_branch: false }),
    ).toEqual([]);
    expect(planDiff({ restrictions: null })).toEqual([]);
  });

  it("compares users, teams and apps as case-insensitive sets", () => {
    const current = {
      ...live,
      restrictions: { users: ["alice", "bob"], teams: ["platform"], apps: [] },
    };
    expect(
      planDiff({ restrictions: { users: ["Bob", "ALICE"], teams: ["Platform"] } }, current),
    ).toEqual([]);
    expect(planDiff({ restrictions: { users: ["alice"], teams: ["platform"] } }, current)).toEqual([
      { path: "restrictions.users", before: ["alice", "bob"], after: ["alice"] },
    ]);
  });

  it("matches a check written without app_id to whatever app the service chose", () => {
    expect(planDiff({ required_status_checks: { checks: [{ context: "ci/build" }] } })).toEqual([]);
    expect(planDiff({ required_status_checks: { contexts: ["ci/build"] } })).toEqual([]);
  });

  it("treats app_id -1 as any app, equal to the service's null", () => {
    const anyApp = {
      ...live,
      required_status_checks: { strict: true, checks: [{ context: "lint", app_id: null }] },
    };
    expect(
      planDiff(
        { required_status_checks: { strict: true, checks: [{ context: "lint", app_id: -1 }] } },
        anyApp,
      ),
    ).toEqual([]);
    expect(
      planDiff({ required_status_checks: { checks: [{ context: "lint", app_id: 7 }] } }, anyApp),
    ).toEqual([
      {
        path: "required_status_checks.checks",
        before: [{ context: "lint", app_id: null }],
        after: [{ context: "lint", app_id: 7 }],
      },
    ]);
  });

  it("builds the whole PUT body from live state plus desired fields, with checks only (never contexts)", () => {
    const body = toBody(
      targetOf({ required_status_checks: { contexts: ["ci/build", "lint"] } }, live),
      live,
    );
    expect(body).toEqual({
      required_status_checks: {
        strict: true,
        checks: [{ context: "ci/build", app_id: 15368 }, { context: "lint" }],
      },
      enforce_admins: false,
      required_pull_request_reviews: {
        dismiss_stale_reviews: true,
        require_code_owner_reviews: false,
        required_approving_review_count: 1,
        require_last_push_approval: false,
      },
      restrictions: null,
      required_linear_history: false,
      allow_force_pushes: false,
      allow_deletions: false,
      block_creations: false,
      required_conversation_resolution: false,
      lock_branch: false,
      allow_fork_syncing: false,
    });
  });

  it("sends an empty dismissal_restrictions object to clear existing restrictions", () => {
    const current = {
      ...live,
      required_pull_request_reviews: {
        ...live.required_pull_request_reviews!,
        dismissal_restrictions: { users: ["alice"], teams: [], apps: [] },
      },
    };
    const target = targetOf(
      { required_pull_request_reviews: { dismissal_restrictions: {} } },
      current,
    );
    const body = toBody(target, current) as {
      required_pull_request_reviews: Record<string, unknown>;
    };
    expect(body.required_pull_request_reviews.dismissal_restrictions).toEqual({});
  });

  describe("review dismissal restricted to nobody (admins only)", () => {
    const adminsOnly: CanonicalProtection = {
      ...live,
      required_pull_request_reviews: {
        ...live.required_pull_request_reviews!,
        dismissal_restrictions: { users: [], teams: [], apps: [] },
      },
    };
    const read = (dismissal: object | undefined) =>
      fromRead({
        url: "https://sandbox.example/repos/acme/api/branches/main/protection",
        required_pull_request_reviews: {
          required_approving_review_count: 1,
          ...(dismissal === undefined ? {} : { dismissal_restrictions: dismissal }),
        },
      });

    it("reads apart from no restriction, and exports as settings that plan as no change", () => {
      const restricted = read({ url: "u", users_url: "u", teams_url: "u", users: [], teams: [] });
      const unrestricted = read(undefined);
      expect(restricted.required_pull_request_reviews?.dismissal_restrictions).toEqual({
        users: [],
        teams: [],
        apps: [],
      });
      expect(unrestricted.required_pull_request_reviews?.dismissal_restrictions).toBeNull();
      for (const current of [restricted, unrestricted]) {
        expect(planDiff(toSettings(current), current)).toEqual([]);
      }
    });

    it("stays restricted when the desired state does not write it", () => {
      const desired = { required_pull_request_reviews: { required_approving_review_count: 2 } };
      expect(planDiff(desired, adminsOnly)).toEqual([
        {
          path: "required_pull_request_reviews.required_approving_review_count",
          before: 1,
          after: 2,
        },
      ]);
      const body = toBody(targetOf(desired, adminsOnly), adminsOnly) as {
        required_pull_request_reviews: Record<string, unknown>;
      };
      expect(body.required_pull_request_reviews.dismissal_restrictions).toEqual({
        users: [],
        teams: [],
        apps: [],
      });
    });

    it("is what empty lists ask for, and an empty object lifts it", () => {
      const restrict = { required_pull_request_reviews: { dismissal_restrictions: { users: [] } } };
      const restricted = targetOf(restrict, live);
      expect(restricted.required_pull_request_reviews?.dismissal_restrictions).toEqual({
        users: [],
        teams: [],
        apps: [],
      });
      expect(planDiff(restrict)).toEqual([
        {
          path: "required_pull_request_reviews.dismissal_restrictions",
          before: null,
          after: { users: [], teams: [], apps: [] },
        },
      ]);
      const lift = { required_pull_request_reviews: { dismissal_restrictions: {} } };
      const lifted = targetOf(lift, adminsOnly);
      expect(lifted.required_pull_request_reviews?.dismissal_restrictions).toBeNull();
      const body = toBody(lifted, adminsOnly) as {
        required_pull_request_reviews: Record<string, unknown>;
      };
      expect(body.required_pull_request_reviews.dismissal_restrictions).toEqual({});
    });
  });

  it("fills the spec defaults for a newly protected branch", () => {
    const target = targetOf({ required_pull_request_reviews: {} }, null);
    expect(target.required_pull_request_reviews?.required_approving_review_count).toBe(1);
    expect(target.enforce_admins).toBe(false);
    expect(target.required_status_checks).toBeNull();
  });

  it("detects what the service silently dropped after a write", () => {
    const body = toBody(
      targetOf({ restrictions: { users: ["alice", "mallory"], teams: [] } }, live),
      live,
    );
    const response = {
      url: "https://sandbox.example/repos/acme/api/branches/main/protection",
      required_status_checks: {
        strict: true,
        contexts: ["ci/build"],
        checks: [{ context: "ci/build", app_id: 15368 }],
      },
      enforce_admins: { enabled: false },
      required_pull_request_reviews: {
        dismiss_stale_reviews: true,
        required_approving_review_count: 1,
      },
      restrictions: { users: [{ login: "alice" }], teams: [], apps: [] },
      required_linear_history: { enabled: false },
    };
    expect(verifyWritten({ method: "PUT", path: "/p", body }, response)).toEqual([
      { path: "restrictions.users", before: ["alice", "mallory"], after: ["alice"] },
    ]);
  });
});
