import { describe, expect, it } from "vitest";
import { makePlan } from "../../src/core/plan.js";
import { renderApplyReport, renderPlan } from "../../src/render/index.js";
import {
  appliedReport,
  change,
  createProtection,
  realisticPlan,
  reportInvitation,
  unchangedProtection,
  updateHook,
} from "./fixtures.js";

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

describe("text plan", () => {
  it("shows one block per change that does something, then the summary", () => {
    expect(renderPlan(realisticPlan(), "text")).toBe(
      [
        "~ github/acme/api/webhook/ci will be updated",
        '    events: ["push"] → ["pull_request", "push"]',
        "    config.secret: (sensitive) → (sensitive)",
        "    note: secret could not be verified (write-only)",
        "",
        "+ github/acme/web/branch_protection/main will be created",
        "    + enforce_admins: true",
        '    + required_status_checks.checks: [{context: "ci/test"}]',
        "",
        "- planning/acme/api/board/2 will be deleted",
        '    - name: "Old board"',
        "",
        "! github/acme/api/invitation/3 has findings",
        "    • octo-rogue was invited 45 days ago (maximum 30)",
        "",
        "✗ github/acme/ghost/branch_protection/main could not be planned",
        "    error: GET /repos/acme/ghost/branches/main → 404: Not Found",
        "",
        "Plan: 1 to create, 1 to update, 1 to delete, 1 to report, 1 unchanged, 1 error.",
        "1 change could not be planned: apply applies nothing while the plan has errors (--allow-plan-errors applies the rest).",
        "",
      ].join("\n"),
    );
  });

  it("marks every field of a create as added, whatever the diff holds as before", () => {
    const create = change({
      kind: "branch_protection",
      action: "create",
      target: "github",
      scope: "acme/web",
      name: "main",
      diff: [
        { path: "enforce_admins", before: false, after: true },
        { path: "required_linear_history", after: true },
      ],
    });
    expect(renderPlan(makePlan([create]), "text")).toBe(
      [
        "+ github/acme/web/branch_protection/main will be created",
        "    + enforce_admins: true",
        "    + required_linear_history: true",
        "",
        "Plan: 1 to create, 0 to update, 0 to delete, 0 to report, 0 unchanged.",
        "",
      ].join("\n"),
    );
  });

  it("counts a change that could not be planned as an error, not as unchanged", () => {
    const failed = change({
      kind: "branch_protection",
      action: "no-op",
      target: "github",
      scope: "acme/ghost",
      name: "main",
      error: { message: "Not Found", request: "GET /repos/acme/ghost/branches/main", status: 404 },
    });
    const plan = makePlan([failed]);
    expect(plan.summary["no-op"]).toBe(0);
    expect(plan.errors).toBe(1);
    expect(renderPlan(plan, "text").split("\n").slice(-3)).toEqual([
      "Plan: 0 to create, 0 to update, 0 to delete, 0 to report, 0 unchanged, 1 error.",
      "1 change could not be planned.",
      "",
    ]);
  });

  it("says so when nothing changes", () => {
    expect(renderPlan(makePlan([unchangedProtection]), "text")).toBe(
      "No changes. Live state matches the desired state.\n",
    );
  });

  it("still lists audit reports when nothing changes", () => {
    expect(renderPlan(makePlan([unchangedProtection, reportInvitation]), "text")).toBe(
      [
        "! github/acme/api/invitation/3 has findings",
        "    • octo-rogue was invited 45 days ago (maximum 30)",
        "",
        "No changes. Live state matches the desired state.",
        "1 audit report.",
        "",
      ].join("\n"),
    );
  });

  it("shows an updated field that appears or disappears with + and -", () => {
    const update = change({
      kind: "branch_protection",
      action: "update",
      target: "github",
      scope: "acme/api",
      name: "main",
      diff: [
        { path: "required_linear_history", before: false, after: true },
        { path: "restrictions.users", after: ["octo-admin"] },
        { path: "required_pull_request_reviews", before: { required_approving_review_count: 2 } },
      ],
    });
    expect(renderPlan(makePlan([update]), "text")).toBe(
      [
        "~ github/acme/api/branch_protection/main will be updated",
        "    required_linear_history: false → true",
        '    + restrictions.users: ["octo-admin"]',
        "    - required_pull_request_reviews: {required_approving_review_count: 2}",
        "",
        "Plan: 0 to create, 1 to update, 0 to delete, 0 to report, 0 unchanged.",
        "",
      ].join("\n"),
    );
  });

  it("cuts long values and shows control characters in names as escapes", () => {
    const hostile = change({
      kind: "branch_protection",
      action: "create",
      target: "github",
      scope: "acme/api",
      name: "evil\u001b[2Jbranch",
      diff: [{ path: "description", after: "y".repeat(1000) }],
    });
    const text = renderPlan(makePlan([hostile]), "text");
    expect(text).not.toContain("\u001b");
    expect(text).toContain("evil\\u001b[2Jbranch");
    expect(text.split("\n")[1]).toBe(`    + description: "${"y".repeat(118)}…`);
  });

  it("uses no color unless asked", () => {
    expect(renderPlan(realisticPlan(), "text")).not.toMatch(ANSI);
    expect(renderPlan(realisticPlan(), "text", { color: false })).not.toMatch(ANSI);
  });

  it("colors symbols by action and bolds addresses when asked, with the same words", () => {
    const colored = renderPlan(realisticPlan(), "text", { color: true });
    expect(colored.replace(ANSI, "")).toBe(renderPlan(realisticPlan(), "text"));
    expect(colored).toContain(
      "\u001b[32m+\u001b[39m \u001b[1mgithub/acme/web/branch_protection/main\u001b[22m",
    );
    expect(colored).toContain(
      "\u001b[33m~\u001b[39m \u001b[1mgithub/acme/api/webhook/ci\u001b[22m",
    );
    expect(colored).toContain("\u001b[31m-\u001b[39m \u001b[1mplanning/acme/api/board/2\u001b[22m");
    expect(colored).toContain(
      "\u001b[36m!\u001b[39m \u001b[1mgithub/acme/api/invitation/3\u001b[22m",
    );
    expect(colored).toContain(
      "\u001b[2m    note: secret could not be verified (write-only)\u001b[22m",
    );
  });

  it("leaves no trailing whitespace on any line, colored or not", () => {
    const notes = change({ ...createProtection, notes: ["", "trailing  "] });
    for (const color of [false, true]) {
      const text = renderPlan(makePlan([notes, ...realisticPlan().changes]), "text", { color });
      for (const line of text.replace(ANSI, "").split("\n")) expect(line).toBe(line.trimEnd());
      expect(text.endsWith("\n")).toBe(true);
      expect(text.endsWith("\n\n")).toBe(false);
    }
  });
});

describe("text apply report", () => {
  it("lists outcomes by kind with counts and what the re-plan still shows", () => {
    expect(renderApplyReport(appliedReport(), "text")).toBe(
      [
        "Applied (1):",
        "  ✓ github/acme/web/branch_protection/main (create)",
        "",
        "Failed (1):",
        "  ✗ github/acme/api/webhook/ci (update): PATCH /repos/acme/api/hooks/1 → 422: Validation Failed",
        "",
        "Skipped (1):",
        "  ○ planning/acme/api/board/2 (delete): deletes need --allow-delete",
        "",
        "Apply: 1 applied, 1 failed, 0 held, 1 skipped.",
        "Not verified: the re-plan still shows 2 changes:",
        "",
        "~ github/acme/api/webhook/ci will be updated",
        '    events: ["push"] → ["pull_request", "push"]',
        "    config.secret: (sensitive) → (sensitive)",
        "    note: secret could not be verified (write-only)",
        "",
        "- planning/acme/api/board/2 will be deleted",
        '    - name: "Old board"',
        "",
      ].join("\n"),
    );
  });

  it("confirms a clean verification", () => {
    const report = {
      outcomes: [
        {
          address: createProtection.address,
          kind: "branch_protection" as const,
          action: "create" as const,
          outcome: "applied" as const,
        },
        {
          address: "github/acme/api/webhook/2",
          kind: "webhook" as const,
          action: "update" as const,
          outcome: "held" as const,
          message: "migration 2 is running and locks acme/api",
        },
      ],
      verification: makePlan([{ ...createProtection, action: "no-op" as const, diff: [] }]),
      verified: true,
    };
    expect(renderApplyReport(report, "text")).toBe(
      [
        "Applied (1):",
        "  ✓ github/acme/web/branch_protection/main (create)",
        "",
        "Held (1):",
        "  ⏸ github/acme/api/webhook/2 (update): migration 2 is running and locks acme/api",
        "",
        "Apply: 1 applied, 0 failed, 1 held, 0 skipped.",
        "Verified: re-plan shows no changes.",
        "",
      ].join("\n"),
    );
  });

  it("says what is left when apply was verified but some changes were not applied", () => {
    const report = { ...appliedReport(), verified: true };
    expect(renderApplyReport(report, "text")).toContain(
      "Verified: re-plan shows no changes for what was applied; not applied: 2 changes.\n",
    );
  });

  it("names each applied change the re-plan could not check, and why, once", () => {
    const gone = "github/acme/api/webhook/https://old.acme.example/hook";
    const failure = {
      message: "Server Error",
      request: "GET /repos/acme/api/hooks?per_page=100",
      status: 502,
    };
    const base = appliedReport();
    const report = {
      ...base,
      outcomes: [
        ...base.outcomes,
        { address: gone, kind: "webhook", action: "delete" as const, outcome: "applied" as const },
      ],
      verification: makePlan([
        ...(base.verification?.changes ?? []),
        { ...updateHook, address: gone, action: "no-op" as const, error: failure },
      ]),
      unchecked: [
        {
          address: gone,
          reason:
            "the re-plan could not plan it: GET /repos/acme/api/hooks?per_page=100 → 502: Server Error",
        },
      ],
    };
    const text = renderApplyReport(report, "text");
    expect(text).toContain(
      [
        "Not verified: the re-plan still shows 2 changes:",
        "",
        "~ github/acme/api/webhook/ci will be updated",
      ].join("\n"),
    );
    expect(text).toContain(
      [
        '    - name: "Old board"',
        "",
        "The re-plan could not check 1 applied change:",
        `  ✗ ${gone}: the re-plan could not plan it: GET /repos/acme/api/hooks?per_page=100 → 502: Server Error`,
        "",
      ].join("\n"),
    );
    expect(text).not.toContain(`${gone} could not be planned`);

    const alone = {
      outcomes: report.outcomes.slice(-1),
      verification: makePlan([]),
      verified: false,
      unchecked: [{ address: gone, reason: "the re-plan has no entry for it" }],
    };
    expect(renderApplyReport(alone, "text")).toBe(
      [
        "Applied (1):",
        `  ✓ ${gone} (delete)`,
        "",
        "Apply: 1 applied, 0 failed, 0 held, 0 skipped.",
        "Not verified: the re-plan could not check 1 applied change:",
        `  ✗ ${gone}: the re-plan has no entry for it`,
        "",
      ].join("\n"),
    );
  });

  it("says when no re-plan was made", () => {
    const report = { outcomes: [], verified: false };
    expect(renderApplyReport(report, "text")).toBe(
      "Apply: 0 applied, 0 failed, 0 held, 0 skipped.\nNot verified: no re-plan was made.\n",
    );
  });
});
