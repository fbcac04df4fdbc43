/**
 * The budget line every plan carries: what its reads cost, and the least time GitHub's published
 * limits allow for them, by the formula — the largest of the bounds set by 5,000 requests
 * and 5,000 points an hour, 900 points a minute per REST endpoint and 2,000 GraphQL points a
 * minute, and 90 s of response time a minute (60 s of it GraphQL) at 0.3 s a REST read and 2 s a
 * GraphQL query. The plan file keeps the counts and recomputes the time; merged shard plans add up.
 */
import { describe, expect, it } from "vitest";
import { budgetLine, leastTime, type ReadBudget } from "../../src/core/budget.js";
import { makePlan, type Plan } from "../../src/core/plan.js";
import { planFileText, readPlanFile } from "../../src/core/plan-file.js";
import { mergePlans } from "../../src/engine/merge.js";
import { KIND_NAMES } from "../../src/resources/index.js";
import { renderPlan } from "../../src/render/index.js";
import { createProtection, realisticPlan } from "./fixtures.js";

const base: ReadBudget = {
  rest_requests: 0,
  from_cache: 0,
  busiest_endpoint: 0,
  graphql_queries: 0,
  graphql_points: 0,
  rest_limit: 5000,
  graphql_limit: 5000,
};

describe("the least time at GitHub's limits", () => {
  it("is the largest bound, named by the limit that sets it", () => {
    // 40,000 REST reads: 8 hours of 5,000 an hour.
    expect(leastTime({ ...base, rest_requests: 40_000, busiest_endpoint: 20_000 })).toEqual({
      minutes: 480,
      limit: "5,000 REST requests/h",
    });
    // Answers from the cache cost no budget, but still take their 0.3 s: 3,000 s at 90 a minute.
    expect(
      leastTime({ ...base, rest_requests: 10_000, from_cache: 10_000, busiest_endpoint: 10_000 }),
    ).toEqual({ minutes: 3000 / 90, limit: "90 s of response time/min" });
    // 1,000 points at 5,000 an hour: 12 min; 200 queries at 2 s, 60 s a minute: under 7.
    expect(leastTime({ ...base, graphql_queries: 200, graphql_points: 1000 })).toEqual({
      minutes: 12,
      limit: "5,000 GraphQL points/h",
    });
    // 400 queries of 1 point: 800 s of GraphQL at 60 a minute.
    expect(leastTime({ ...base, graphql_queries: 400, graphql_points: 400 }).limit).toBe(
      "60 s of GraphQL response time/min",
    );
    // A reported limit of an App installation is the hourly bound.
    expect(leastTime({ ...base, rest_requests: 15_000, rest_limit: 15_000 }).minutes).toBe(60);
  });

  it("reads as a line: ≥ 6 h 2 min at 5,000 REST requests/h", () => {
    const line = budgetLine({ ...base, rest_requests: 30_102, busiest_endpoint: 10_000 });
    expect(line).toBe(
      "Reads: 30,102 REST requests (0 from the cache), 0 GraphQL queries (0 points) · ≥ 6 h 2 min at 5,000 REST requests/h",
    );
    expect(budgetLine(base)).toBe(
      "Reads: 0 REST requests (0 from the cache), 0 GraphQL queries (0 points)",
    );
    expect(budgetLine({ ...base, graphql_queries: 1, graphql_points: 1, rest_requests: 1 })).toBe(
      "Reads: 1 REST request (0 from the cache), 1 GraphQL query (1 point) · ≥ 2 s at 60 s of GraphQL response time/min",
    );
  });
});

const budget: ReadBudget = {
  ...base,
  rest_requests: 120,
  busiest_endpoint: 100,
  graphql_queries: 3,
  graphql_points: 8,
};

describe("the budget in plans", () => {
  it("ends the text and markdown plans", () => {
    const plan: Plan = { ...realisticPlan(), budget };
    const line = budgetLine(budget);
    expect(renderPlan(plan, "text").trimEnd().split("\n").at(-1)).toBe(line);
    expect(renderPlan(plan, "markdown")).toContain(`_${line}_`);
    expect(renderPlan(realisticPlan(), "text")).not.toContain("Reads:");
  });

  it("is kept in the plan file with its least time, which is recomputed when read", () => {
    const text = planFileText({ ...makePlan([createProtection]), budget });
    const stored = JSON.parse(text) as { budget: Record<string, unknown> };
    expect(stored.budget).toEqual({ ...budget, least_time: leastTime(budget) });
    const edited = text.replace(/"minutes": [\d.]+/, '"minutes": 0');
    expect(readPlanFile(edited, "plan.json", KIND_NAMES).budget).toEqual(budget);
  });

  it("adds up over merged shard plans", () => {
    const shard = (index: number, changes: Plan["changes"]) =>
      planFileText({ ...makePlan(changes), shard: { index, count: 2 }, budget });
    const merged = mergePlans([
      { source: "s1.json", text: shard(1, [createProtection]) },
      { source: "s2.json", text: shard(2, []) },
    ]);
    expect(merged.budget).toEqual({
      ...budget,
      rest_requests: 240,
      busiest_endpoint: 200,
      graphql_queries: 6,
      graphql_points: 16,
    });
  });
});
