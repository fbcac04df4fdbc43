import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { endpointKey } from "../../src/forge/endpoint.js";
import { PointWindow } from "../../src/forge/points.js";

describe("PointWindow", () => {
  const t0 = 1_700_000_000_000;

  it("admits until the budget is spent, then waits for the oldest points to leave the window", () => {
    const points = new PointWindow(12, 60_000);
    expect(points.admit("e", 5, t0)).toBe(0);
    expect(points.admit("e", 5, t0 + 10_000)).toBe(0);
    expect(points.admit("e", 1, t0 + 20_000)).toBe(0);
    // 11 spent: a write needs the first 5 gone, at t0 + 60 s.
    expect(points.admit("e", 5, t0 + 30_000)).toBe(30_000);
    // A read still fits, and a refused request spent nothing.
    expect(points.admit("e", 1, t0 + 30_000)).toBe(0);
    expect(points.admit("e", 1, t0 + 30_000)).toBe(30_000);
    expect(points.admit("e", 5, t0 + 60_000)).toBe(0);
  });

  it("waits until enough has left when the oldest entry alone is not enough", () => {
    const points = new PointWindow(10, 60_000);
    expect(points.admit("e", 1, t0)).toBe(0);
    expect(points.admit("e", 5, t0 + 1000)).toBe(0);
    expect(points.admit("e", 4, t0 + 2000)).toBe(0);
    expect(points.admit("e", 5, t0 + 3000)).toBe(58_000);
  });

  it("keeps a budget per key", () => {
    const points = new PointWindow(5, 60_000);
    expect(points.admit("a", 5, t0)).toBe(0);
    expect(points.admit("b", 5, t0)).toBe(0);
    expect(points.admit("a", 1, t0)).toBe(60_000);
  });

  it("answers as a pass over the whole window would, for any sequence of requests", () => {
    // The reference sums the window on every call; PointWindow keeps a running total instead.
    const reference = (budget: number, windowMs: number) => {
      const spent = new Map<string, { at: number; cost: number }[]>();
      return (key: string, cost: number, now: number): number => {
        const entries = (spent.get(key) ?? []).filter((e) => e.at + windowMs > now);
        let used = entries.reduce((sum, e) => sum + e.cost, 0);
        if (entries.length > 0 && used + cost > budget) {
          for (const entry of entries) {
            used -= entry.cost;
            if (used + cost <= budget || used === 0) return entry.at + windowMs - now;
          }
        }
        entries.push({ at: now, cost });
        spent.set(key, entries);
        return 0;
      };
    };
    const request = fc.record({
      key: fc.constantFrom("a", "b"),
      cost: fc.constantFrom(1, 5),
      gapMs: fc.integer({ min: 0, max: 3000 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(request, { minLength: 1500, maxLength: 3000 }),
        (budget, requests) => {
          const points = new PointWindow(budget, 10_000);
          const expected = reference(budget, 10_000);
          let now = t0;
          for (const { key, cost, gapMs } of requests) {
            now += gapMs;
            expect(points.admit(key, cost, now)).toBe(expected(key, cost, now));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("sends a request costing more than the whole budget alone into an empty window", () => {
    const points = new PointWindow(3, 60_000);
    expect(points.admit("e", 5, t0)).toBe(0);
    expect(points.admit("e", 1, t0 + 1)).toBe(59_999);
    expect(points.admit("e", 5, t0 + 60_000)).toBe(0);
  });
});

describe("endpointKey", () => {
  const cases: [string, string][] = [
    [
      "/repos/acme/api/branches/main/protection",
      "/repos/{owner}/{repo}/branches/{branch}/protection",
    ],
    [
      "/repos/acme/api/branches/release%2F1.0/protection",
      "/repos/{owner}/{repo}/branches/{branch}/protection",
    ],
    [
      "/repos/acme/api/branches/release/1.0/protection",
      "/repos/{owner}/{repo}/branches/{branch}/protection",
    ],
    [
      "/repos/acme/api/branches/main/protection/required_status_checks",
      "/repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks",
    ],
    ["/repos/acme/api/branches/main", "/repos/{owner}/{repo}/branches/{branch}"],
    ["/repos/acme/api/branches?per_page=100", "/repos/{owner}/{repo}/branches"],
    ["/repos/acme/api/hooks", "/repos/{owner}/{repo}/hooks"],
    ["/repos/other/web/hooks/12345", "/repos/{owner}/{repo}/hooks/{n}"],
    ["/repos/acme/api/invitations/7", "/repos/{owner}/{repo}/invitations/{n}"],
    ["/repos/acme/api", "/repos/{owner}/{repo}"],
    ["/repos/acme/api/issues/3/comments", "/repos/{owner}/{repo}/issues/{n}/comments"],
    ["/repos/acme/api/issues/comments/99", "/repos/{owner}/{repo}/issues/comments/{n}"],
    ["/repos/acme/api/issues?state=open", "/repos/{owner}/{repo}/issues"],
    ["/orgs/acme/repos?per_page=100", "/orgs/{org}/repos"],
    ["/orgs/acme/migrations/42", "/orgs/{org}/migrations/{n}"],
    ["/users/octocat/repos", "/users/{user}/repos"],
    ["/user/migrations/42", "/user/migrations/{n}"],
    ["/gists", "/gists"],
    ["/rate_limit", "/rate_limit"],
    ["/api/v4/projects/42/boards", "/api/v4/projects/{id}/boards"],
    ["/api/v4/projects/acme%2Fapi/boards/3", "/api/v4/projects/{id}/boards/{n}"],
    ["/api/v4/groups/acme", "/api/v4/groups/{id}"],
    ["/api/v4/groups/acme%2Fplatform/epics", "/api/v4/groups/{id}/epics"],
    [
      "/api/v4/groups/7/epics/12/related_epics/5",
      "/api/v4/groups/{id}/epics/{n}/related_epics/{n}",
    ],
  ];
  for (const [path, key] of cases) {
    it(`${path} → ${key}`, () => {
      expect(endpointKey(path)).toBe(key);
    });
  }
});
