import { describe, expect, it } from "vitest";
import { makePlan, type Change, type Plan } from "../../src/core/plan.js";
import { renderApplyReport, renderPlan } from "../../src/render/index.js";
import { planJson, planJsonChunks } from "../../src/render/json.js";
import { appliedReport, createProtection, realisticPlan, updateHook } from "./fixtures.js";

/** What a saved plan must read back as: the plan itself, with sensitive diff values replaced. */
function withSensitiveRedacted(plan: Plan): Plan {
  return {
    ...plan,
    changes: plan.changes.map((change) => ({
      ...change,
      diff: change.diff.map((entry) =>
        entry.sensitive ? { ...entry, before: "(sensitive)", after: "(sensitive)" } : entry,
      ),
    })),
  };
}

describe("json plan", () => {
  it("round-trips: parsing it gives the plan back", () => {
    const plan = realisticPlan();
    expect(JSON.parse(renderPlan(plan, "json"))).toEqual(withSensitiveRedacted(plan));
  });

  it("keeps secret references in request bodies as they are", () => {
    const parsed = JSON.parse(renderPlan(makePlan([updateHook]), "json")) as Plan;
    expect(parsed.changes[0]?.requests[0]?.body).toEqual({
      events: ["pull_request", "push"],
      config: { secret: { $secret: "CI_HOOK_SECRET" } },
    });
  });

  it("has the contract's shape with the keys in a fixed order", () => {
    const parsed = JSON.parse(renderPlan(realisticPlan(), "json")) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["format_version", "changes", "summary", "errors"]);
    expect(parsed.format_version).toBe(1);
    expect(Object.keys(parsed.summary as object)).toEqual([
      "create",
      "update",
      "delete",
      "report",
      "no-op",
    ]);
    const [first] = parsed.changes as Record<string, unknown>[];
    expect(Object.keys(first ?? {})).toEqual([
      "address",
      "kind",
      "action",
      "target",
      "scope",
      "name",
      "diff",
      "requests",
      "notes",
    ]);
    expect((first?.diff as object[])[0]).toEqual({
      path: "events",
      before: ["push"],
      after: ["pull_request", "push"],
    });
  });

  it("prints the same bytes whatever order the plan's objects were built in", () => {
    const shuffled: Change = {
      requests: createProtection.requests,
      diff: createProtection.diff.map(({ after, path }) => ({ after, path })),
      name: createProtection.name,
      scope: createProtection.scope,
      target: createProtection.target,
      action: createProtection.action,
      kind: createProtection.kind,
      address: createProtection.address,
    };
    const reordered: Plan = {
      errors: 0,
      summary: makePlan([shuffled]).summary,
      changes: [shuffled],
      format_version: 1,
    };
    expect(renderPlan(reordered, "json")).toBe(renderPlan(makePlan([createProtection]), "json"));
  });

  it("is indented by two spaces and ends with a newline", () => {
    const json = renderPlan(realisticPlan(), "json");
    expect(json).toBe(`${JSON.stringify(JSON.parse(json), null, 2)}\n`);
  });

  it("keeps every value whole, however long", () => {
    const long = "z".repeat(5000);
    const plan = makePlan([{ ...createProtection, diff: [{ path: "description", after: long }] }]);
    expect(renderPlan(plan, "json")).toContain(`"after": "${long}"`);
  });
});

describe("json apply report", () => {
  it("is the report as data", () => {
    const report = appliedReport();
    expect(JSON.parse(renderApplyReport(report, "json"))).toEqual({
      ...report,
      verification: withSensitiveRedacted(report.verification as Plan),
    });
  });

  it("keeps the report's keys in a fixed order", () => {
    const parsed = JSON.parse(renderApplyReport(appliedReport(), "json")) as Record<
      string,
      unknown
    >;
    expect(Object.keys(parsed)).toEqual(["outcomes", "verification", "verified"]);
    const unchecked = [
      { address: "github/acme/api/webhook/x", reason: "the re-plan has no entry for it" },
    ];
    const withUnchecked = JSON.parse(
      renderApplyReport({ unchecked, ...appliedReport() }, "json"),
    ) as Record<string, unknown>;
    expect(Object.keys(withUnchecked)).toEqual([
      "outcomes",
      "verification",
      "verified",
      "unchecked",
    ]);
    expect(withUnchecked.unchecked).toEqual(unchecked);
    expect(Object.keys((parsed.outcomes as object[])[1] ?? {})).toEqual([
      "address",
      "kind",
      "action",
      "outcome",
      "request",
      "status",
      "message",
    ]);
  });
});

describe("JSON in pieces", () => {
  it("joins to exactly the bytes of the whole rendering, empty or not", () => {
    const changes = Array.from({ length: 150 }, (_, index) => ({
      address: `github/acme/repo-${index}/branch_protection/main`,
      kind: "branch_protection" as const,
      action: "update" as const,
      target: "github",
      scope: `acme/repo-${index}`,
      name: "main",
      diff: [{ path: "enforce_admins", before: false, after: true }],
      requests: [
        { method: "PUT" as const, path: `/repos/acme/repo-${index}/branches/main/protection` },
      ],
    }));
    for (const plan of [makePlan(changes), makePlan([])]) {
      const pieces = [...planJsonChunks(plan)];
      expect(pieces.join("")).toBe(`${JSON.stringify(JSON.parse(planJson(plan)), null, 2)}\n`);
      // The frame's head and tail, and the changes 64 at a time (64, 64 and 22).
      expect(pieces.length).toBe(plan.changes.length === 0 ? 1 : 3 + 2);
    }
  });
});
