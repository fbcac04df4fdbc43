import { describe, expect, it } from "vitest";
import { makePlan, type Change, type ChangeOutcome } from "../../src/core/plan.js";
import { verificationOf } from "../../src/engine/apply.js";

const address = "github/acme/api/branch_protection/main";
const applied = (action: ChangeOutcome["action"]): ChangeOutcome => ({
  address,
  kind: "branch_protection",
  action,
  outcome: "applied",
});
const replanned = (action: Change["action"]): Change => ({
  address,
  kind: "branch_protection",
  action,
  target: "github",
  scope: "acme/api",
  name: "main",
  diff: [],
  requests: [],
});

describe("verification after apply", () => {
  it("holds when the re-plan shows what was applied as no change", () => {
    expect(verificationOf([applied("update")], makePlan([replanned("no-op")]))).toBe(true);
  });

  it("fails when the re-plan still shows a change for it", () => {
    expect(verificationOf([applied("update")], makePlan([replanned("update")]))).toBe(false);
  });

  it("fails when the re-plan did not read what was created or updated at all", () => {
    // A glob whose listing failed in the re-plan leaves its repositories out of it entirely.
    expect(verificationOf([applied("create")], makePlan([]))).toBe(false);
    expect(verificationOf([applied("update")], makePlan([]))).toBe(false);
  });

  it("lets a deleted resource leave the plan", () => {
    expect(verificationOf([applied("delete")], makePlan([]))).toBe(true);
  });
});
