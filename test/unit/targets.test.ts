import { describe, expect, it } from "vitest";
import { TargetFilter } from "../../src/engine/targets.js";

describe("--target patterns", () => {
  it("match whole addresses, a star across slashes too", () => {
    const filter = new TargetFilter(["github/acme/api/*", "*/branch_protection/main"]);
    expect(filter.matches("github/acme/api/webhook/https://ci.example/h")).toBe(true);
    expect(filter.matches("github/acme/web/branch_protection/main")).toBe(true);
    expect(filter.matches("github/acme/web/branch_protection/main-2")).toBe(false);
    expect(filter.matches("github/acme/web/webhook/x")).toBe(false);
    expect(filter.matches("github/acme/apiary/webhook/x")).toBe(false);
  });

  it("take ? for one character and classes, negated ones too", () => {
    const filter = new TargetFilter(["github/acme/repo-000[1-3]/?ebhook/*", "gitlab/[!a]*"]);
    expect(filter.matches("github/acme/repo-0002/webhook/x")).toBe(true);
    expect(filter.matches("github/acme/repo-0004/webhook/x")).toBe(false);
    expect(filter.matches("gitlab/1/board/#2")).toBe(true);
    expect(filter.matches("gitlab/acme/epic_link/1-2")).toBe(false);
  });

  it("say which prefixes an address matched by a pattern could start with", () => {
    const filter = new TargetFilter(["github/acme/api/*"]);
    expect(filter.reaches("github/acme/")).toBe(true);
    expect(filter.reaches("github/acme/api/branch_protection/")).toBe(true);
    expect(filter.reaches("github/acme/web/")).toBe(false);
    expect(filter.reaches("github/other/")).toBe(false);
    const anywhere = new TargetFilter(["*/branch_protection/main"]);
    expect(anywhere.reaches("github/acme/web/branch_protection/")).toBe(true);
    // A star may always read on, so any prefix can still lead to a match.
    expect(anywhere.reaches("github/acme/web/webhook/")).toBe(true);
    expect(anywhere.matches("github/acme/web/webhook/x")).toBe(false);
  });
});
