import { describe, expect, it } from "vitest";
import { type Change, makePlan, newChange } from "../../src/core/plan.js";
import { planFileText, readPlanFile } from "../../src/core/plan-file.js";
import {
  allowedRemovals,
  capRemovals,
  DEFAULT_REMOVAL_LIMIT,
  removalLimitOf,
} from "../../src/engine/removal-caps.js";
import { KIND_NAMES } from "../../src/resources/index.js";

/** A delete of `name` from `collection`, which holds `live` members (or a delete of no collection). */
function removal(name: string, collection?: string, live = 0): Change {
  return {
    ...newChange("github", "acme/api", "webhook", name),
    action: "delete",
    requests: [{ method: "DELETE", path: `/repos/acme/api/hooks/${name}` }],
    ...(collection === undefined ? {} : { removal: { collection, live } }),
  };
}

const held = (changes: readonly Change[]) =>
  changes.filter((change) => change.capped !== undefined).map((change) => change.name);

describe("the removal limit", () => {
  it("allows a share of a collection's members, and always its floor", () => {
    expect(allowedRemovals(100, DEFAULT_REMOVAL_LIMIT)).toBe(25);
    expect(allowedRemovals(5, DEFAULT_REMOVAL_LIMIT)).toBe(2);
    expect(allowedRemovals(0, DEFAULT_REMOVAL_LIMIT)).toBe(2);
    expect(allowedRemovals(7, { share: 50, floor: 0 })).toBe(3);
  });

  it("layers the default, the configuration and a run's flags", () => {
    expect(removalLimitOf(undefined, undefined)).toEqual({ share: 25, floor: 2 });
    expect(removalLimitOf({ share: 40, deletes: 10 }, { share: 90 })).toEqual({
      share: 90,
      floor: 2,
      deletes: 10,
    });
  });

  it("holds every removal of a collection over the limit, and none of one within it", () => {
    const plan = makePlan([
      ...["1", "2", "3"].map((id) => removal(id, "github/acme/api/webhook", 5)),
      ...["4", "5"].map((id) => removal(id, "github/acme/web/webhook", 5)),
      removal("6"),
    ]);
    const capped = capRemovals(plan, DEFAULT_REMOVAL_LIMIT);
    expect(held(capped.changes)).toEqual(["1", "2", "3"]);
    expect(capped.changes[0]?.capped).toEqual({
      by: "collection",
      count: 3,
      live: 5,
      allowed: 2,
    });
    expect(capped.changes[0]?.held).toBe(
      "3 of 5 (60 %) would be removed, over the removal limit of 25 % (at least 2); raise it with --removal-limit 60 or removal_limit.share",
    );
    expect(capped.summary).toEqual(plan.summary);
    expect(capRemovals(plan, { share: 60, floor: 2 })).toBe(plan);
  });

  it("holds every delete of a plan over its limit of deletes, after the collections' holds", () => {
    const plan = makePlan([
      ...["1", "2", "3"].map((id) => removal(id, "github/acme/api/webhook", 3)),
      removal("4"),
      removal("5"),
    ]);
    const capped = capRemovals(plan, { share: 25, floor: 2, deletes: 1 });
    expect(held(capped.changes)).toEqual(["1", "2", "3", "4", "5"]);
    expect(capped.changes[3]?.capped).toEqual({ by: "plan", count: 2, allowed: 1 });
    expect(capRemovals(plan, { share: 25, floor: 2, deletes: 2 }).changes[3]?.capped).toBe(
      undefined,
    );
  });

  it("counts no change that could not be planned", () => {
    const failed = { ...removal("1", "github/acme/api/webhook", 1), error: { message: "x" } };
    const plan = makePlan([
      failed,
      ...["2", "3"].map((id) => removal(id, "github/acme/api/webhook", 3)),
    ]);
    expect(held(capRemovals(plan, DEFAULT_REMOVAL_LIMIT).changes)).toEqual([]);
  });

  it("travels in a saved plan: the held deletes and the limit the run raised", () => {
    const plan = {
      ...capRemovals(
        makePlan(["1", "2", "3"].map((id) => removal(id, "github/acme/api/webhook", 3))),
        DEFAULT_REMOVAL_LIMIT,
      ),
      removal_limit: { share: 30 },
    };
    const read = readPlanFile(planFileText(plan), "plan.json", KIND_NAMES);
    expect(read.removal_limit).toEqual({ share: 30 });
    expect(read.changes.map((change) => [change.capped, change.held])).toEqual(
      plan.changes.map((change) => [change.capped, change.held]),
    );
  });
});
