import { describe, expect, it } from "vitest";
import { type Change, makePlan } from "../../src/core/plan.js";
import {
  digestDifference,
  digestLine,
  planDigest,
  readDigest,
} from "../../src/report/plan-digest.js";

function change(name: string, over: Partial<Change> = {}): Change {
  return {
    address: `github/acme/api/branch_protection/${name}`,
    kind: "branch_protection",
    action: "update",
    target: "github",
    scope: "acme/api",
    name,
    diff: [{ path: "enforce_admins", before: false, after: true }],
    requests: [{ method: "PUT", path: `/repos/acme/api/branches/${name}/protection`, body: {} }],
    ...over,
  };
}

describe("the plan digest", () => {
  it("covers what the plan would do, in any order, but not unchanged resources, audits or notes", () => {
    const plan = makePlan([change("main"), change("dev")]);
    const same = makePlan([
      change("dev"),
      { ...change("main"), notes: ["a note"], live_fingerprint: "elsewhere" },
      change("old", { action: "no-op", diff: [], requests: [] }),
      change("audit", {
        kind: "invitation",
        action: "report",
        requests: [],
        findings: ["42 days"],
      }),
    ]);
    expect(planDigest(same).sha256).toBe(planDigest(plan).sha256);
    const other = makePlan([change("main"), change("dev", { diff: [] })]);
    expect(planDigest(other).sha256).not.toBe(planDigest(plan).sha256);
    const failed = makePlan([
      change("main"),
      change("x", { requests: [], error: { message: "Not Found" } }),
    ]);
    expect(planDigest(failed).changes).toHaveProperty(["github/acme/api/branch_protection/x"]);
  });

  it("says when the plan was of a change, which is not part of what it would do", () => {
    const whole = makePlan([change("main")]);
    const partial = {
      ...whole,
      partial: { changed_from: "abc", unchanged: 3, unlisted: [], no_longer_managed: [] },
    };
    expect(planDigest(partial)).toEqual({ ...planDigest(whole), partial: true });
    expect(readDigest(digestLine(planDigest(partial)))?.partial).toBe(true);
    expect(readDigest(digestLine(planDigest(partial), 100))).toEqual({
      sha256: planDigest(whole).sha256,
      partial: true,
    });
  });

  it("says which changes differ", () => {
    const reviewed = planDigest(makePlan([change("main"), change("dev")]));
    const now = planDigest(makePlan([change("main", { diff: [] }), change("release")]));
    expect(digestDifference(reviewed, now)).toEqual({
      added: ["github/acme/api/branch_protection/release"],
      removed: ["github/acme/api/branch_protection/dev"],
      changed: ["github/acme/api/branch_protection/main"],
      unitemized: false,
    });
  });

  it("travels in a hidden line no address can close, and drops its items past the size given", () => {
    const plan = makePlan([change("-->x>"), change("main")]);
    const digest = planDigest(plan);
    const line = digestLine(digest);
    expect(line.indexOf("-->")).toBe(line.length - 3);
    expect(readDigest(`<!-- forgeplan: a -->\n${line}\n\n### plan`)).toEqual(digest);
    const short = digestLine(digest, 100);
    expect(readDigest(short)).toEqual({ sha256: digest.sha256 });
    expect(digestDifference({ sha256: digest.sha256 }, digest).unitemized).toBe(true);
    expect(readDigest('<!-- forgeplan-plan-digest {"sha256":"nope"} -->')).toBeUndefined();
    expect(readDigest("no digest here")).toBeUndefined();
  });
});
