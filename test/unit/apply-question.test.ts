import { describe, expect, it } from "vitest";
import { type Change, makePlan } from "../../src/core/plan.js";
import { confirmationQuestion } from "../../src/cli/apply.js";

function change(name: string, action: Change["action"], over: Partial<Change> = {}): Change {
  return {
    address: `github/acme/${name}/branch_protection/main`,
    kind: "branch_protection",
    action,
    target: "github",
    scope: `acme/${name}`,
    name: "main",
    diff: [],
    requests: [{ method: action === "delete" ? "DELETE" : "PUT", path: `/repos/acme/${name}` }],
    ...over,
  };
}

describe("apply's confirmation question", () => {
  const plan = makePlan([
    change("a", "create"),
    change("b", "update", { held: "acme/b is locked by migration 2" }),
    change("c", "delete"),
    change("d", "update"),
  ]);

  it("counts what will be sent; held changes and deletes without --allow-delete are named apart", () => {
    expect(confirmationQuestion(plan, false)).toBe(
      "Apply 1 create(s), 1 update(s), 0 delete(s)? (1 planned delete(s) skipped: they need --allow-delete; 1 held) Only 'yes' is accepted: ",
    );
  });

  it("counts deletes once they are allowed", () => {
    expect(confirmationQuestion(plan, true)).toBe(
      "Apply 1 create(s), 1 update(s), 1 delete(s)? (1 held) Only 'yes' is accepted: ",
    );
  });
});
