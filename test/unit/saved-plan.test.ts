import { describe, expect, it } from "vitest";
import { type Change, makePlan } from "../../src/core/plan.js";
import { planFileText } from "../../src/core/plan-file.js";
import { readPlan } from "../../src/engine/merge.js";
import { checkSavedPlan, withCurrentHolds } from "../../src/engine/saved-plan.js";
import { missingSecrets } from "../../src/engine/secrets.js";
import { Secret } from "../../src/core/secret.js";

const parseSavedPlan = (text: string, source: string) => readPlan({ source, text });

function change(name: string, over: Partial<Change> = {}): Change {
  return {
    address: `github/acme/api/branch_protection/${name}`,
    kind: "branch_protection",
    action: "update",
    target: "github",
    scope: "acme/api",
    name,
    diff: [],
    requests: [
      { method: "PUT", path: `/repos/acme/api/branches/${name}/protection`, body: { a: 1 } },
    ],
    live_fingerprint: "f1",
    ...over,
  };
}
const noop = (name: string, over: Partial<Change> = {}) =>
  change(name, { action: "no-op", requests: [], ...over });

describe("checkSavedPlan", () => {
  it("accepts a saved plan a fresh plan agrees with, body keys in any order", () => {
    const saved = makePlan([
      change("main", { requests: [{ method: "PUT", path: "/p", body: { a: 1, b: 2 } }] }),
      noop("dev"),
    ]);
    const fresh = makePlan([
      change("main", { requests: [{ method: "PUT", path: "/p", body: { b: 2, a: 1 } }] }),
      noop("dev", { live_fingerprint: "other" }),
    ]);
    expect(checkSavedPlan(saved, fresh)).toEqual([]);
  });

  it("names every change whose live state, requests or presence differ", () => {
    const saved = makePlan([
      change("main"),
      change("release"),
      change("gone"),
      change("broken"),
      change("old", { live_fingerprint: undefined }),
      noop("dev"),
    ]);
    const fresh = makePlan([
      change("main", { live_fingerprint: "f2" }),
      change("release", { requests: [{ method: "PUT", path: "/other" }] }),
      noop("broken", { error: { message: "boom" } }),
      change("old"),
      change("dev", { action: "create" }),
    ]);
    expect(checkSavedPlan(saved, fresh)).toEqual([
      {
        address: "github/acme/api/branch_protection/main",
        reason: "the live state changed since the plan was made",
      },
      {
        address: "github/acme/api/branch_protection/release",
        reason: "a fresh plan would send different requests (the configuration changed)",
      },
      {
        address: "github/acme/api/branch_protection/gone",
        reason: "it is no longer in the plan (the configuration changed)",
      },
      {
        address: "github/acme/api/branch_protection/broken",
        reason: "it cannot be checked now: boom",
      },
      {
        address: "github/acme/api/branch_protection/old",
        reason: "the saved plan records no live fingerprint for it",
      },
      {
        address: "github/acme/api/branch_protection/dev",
        reason:
          "a fresh plan has a create here that the saved plan does not (the live state or the configuration changed)",
      },
    ]);
  });
});

describe("withCurrentHolds", () => {
  it("holds what either plan holds, saying when the hold is only the saved plan's", () => {
    const saved = makePlan([change("main"), change("dev", { held: "locked" }), change("x")]);
    const fresh = makePlan([change("main", { held: "locked now" }), change("dev"), change("x")]);
    expect(withCurrentHolds(saved, fresh).changes.map((c) => c.held)).toEqual([
      "locked now",
      "locked when the plan was made; make a new plan to apply it",
      undefined,
    ]);
  });
});

describe("parseSavedPlan", () => {
  it("reads back what plan --out writes", () => {
    const plan = { ...makePlan([change("main")]), config: ["forgeplan.yaml"] };
    expect(parseSavedPlan(JSON.stringify(plan), "p.json")).toEqual(plan);
  });

  it("counts a change that could not be planned as an error when writing and when reading", () => {
    const failed = noop("ghost", { error: { message: "Not Found", status: 404 } });
    const plan = makePlan([change("main"), failed]);
    expect(plan.summary).toEqual({ create: 0, update: 1, delete: 0, report: 0, "no-op": 0 });
    expect(plan.errors).toBe(1);
    const read = parseSavedPlan(planFileText(plan), "p.json");
    expect(read.summary).toEqual(plan.summary);
    expect(read.errors).toBe(1);
  });

  it("refuses what is not a plan, in one line", () => {
    expect(() => parseSavedPlan("[]", "p.json")).toThrow(
      "p.json is not a forgeplan plan (expected a JSON object)",
    );
    expect(() => parseSavedPlan("{}", "p.json")).toThrow(
      "p.json is not a forgeplan plan (expected format_version 1 and a changes list)",
    );
    expect(() =>
      parseSavedPlan(
        JSON.stringify({
          ...makePlan([change("main", { requests: [{ method: "PUT", path: "repos" }] })]),
        }),
        "p.json",
      ),
    ).toThrow('p.json: changes[0].requests[0].path: expected a path starting with "/"');
  });
});

describe("missingSecrets", () => {
  it("names every referenced variable that neither the desired state nor the environment holds", () => {
    const bodies = [
      { config: { secret: { $secret: "HOOK_SECRET" } } },
      { authorization_header: { $secret: "HOOK_AUTH" } },
      { nested: [{ $secret: "OTHER" }] },
      undefined,
    ];
    const known = new Map([["HOOK_SECRET", new Secret("s", "HOOK_SECRET")]]);
    expect(missingSecrets(bodies, known, { OTHER: "set" })).toEqual(["HOOK_AUTH"]);
    expect(missingSecrets(bodies, known, { OTHER: "x", HOOK_AUTH: "y" })).toEqual([]);
  });
});
