import { describe, expect, it } from "vitest";
import { deepMerge } from "../../src/config/merge.js";
import { invitationFindings } from "../../src/resources/invitation/plan.js";
import { locksOf, migrationFindings } from "../../src/resources/migration/plan.js";

const now = Date.parse("2026-11-22T00:00:00Z");

describe("invitation audit", () => {
  const policy = { allowed_invitees: ["octo-*"], max_age_days: 90, report_expired: true };

  it("reports an invitee outside the allowed globs and an invitation older than the maximum age", () => {
    expect(
      invitationFindings(
        { id: 1, invitee: { login: "hubot" }, created_at: "2026-01-05T10:00:00Z" },
        policy,
        now,
      ),
    ).toEqual([
      "invitee hubot is not in allowed_invitees (octo-*)",
      "open for 320 days (created 2026-01-05T10:00:00Z), more than max_age_days 90",
    ]);
  });

  it("reports expired invitations that are still open, unless told not to", () => {
    const invitation = {
      id: 3,
      invitee: { login: "octo-x" },
      created_at: "2026-11-01T00:00:00Z",
      expired: true,
    };
    expect(invitationFindings(invitation, policy, now)).toEqual([
      "the invitation has expired but is still listed as open",
    ]);
    expect(invitationFindings(invitation, { ...policy, report_expired: false }, now)).toEqual([]);
  });

  it("accepts an allowed, recent invitation (globs are case-insensitive)", () => {
    expect(
      invitationFindings(
        { id: 2, invitee: { login: "Octo-Dev" }, created_at: "2026-11-01T09:00:00Z" },
        policy,
        now,
      ),
    ).toEqual([]);
  });
});

describe("migration audit", () => {
  const audit = {
    org: "acme",
    id: 2,
    state: ["exported" as const],
    repositories: ["acme/api", "ACME/web"],
  };

  it("accepts the expected state and repositories, compared case-insensitively as sets", () => {
    expect(
      migrationFindings(audit, {
        state: "exported",
        lockRepositories: false,
        repositories: ["acme/web", "acme/api"],
      }),
    ).toEqual([]);
  });

  it("reports a different state, missing and unexpected repositories", () => {
    expect(
      migrationFindings(audit, {
        state: "failed",
        lockRepositories: false,
        repositories: ["acme/api", "acme/docs"],
      }),
    ).toEqual([
      "state is failed, expected exported",
      "repositories missing from the migration: acme/web",
      "unexpected repositories in the migration: acme/docs",
    ]);
  });

  it("locks repositories only while a locking migration is pending or exporting", () => {
    const live = { state: "exporting", lockRepositories: true, repositories: ["acme/web"] };
    expect(locksOf(live)).toEqual(["acme/web"]);
    expect(locksOf({ ...live, state: "exported" })).toEqual([]);
    expect(locksOf({ ...live, lockRepositories: false })).toEqual([]);
  });
});

describe("layering", () => {
  it("merges maps deeply while lists and null replace", () => {
    expect(deepMerge({ a: { b: 1, c: [1, 2] }, d: { e: 1 } }, { a: { c: [3] }, d: null })).toEqual({
      a: { b: 1, c: [3] },
      d: null,
    });
  });
});
