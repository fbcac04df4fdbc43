import { describe, expect, it } from "vitest";
import { makePlan, type Plan } from "../../src/core/plan.js";
import { PlanFileError, readPlanFile } from "../../src/core/plan-file.js";
import { renderPlan } from "../../src/render/index.js";
import { change } from "./fixtures.js";

const mixed = change({
  kind: "branch_protection",
  action: "update",
  target: "github",
  scope: "acme/api",
  name: "main",
  diff: [
    { path: "enforce_admins", before: false, after: true, preexisting: true },
    { path: "required_linear_history", before: false, after: true },
  ],
  notes: ["selected by acme/* where team=web (forgeplan.yaml:3)"],
});
const driftOnly = change({
  kind: "branch_protection",
  action: "create",
  target: "github",
  scope: "acme/web",
  name: "main",
  diff: [{ path: "enforce_admins", after: true, preexisting: true }],
});

const partial = (released: string[] = []): Plan => ({
  ...makePlan([mixed, driftOnly]),
  partial: {
    changed_from: "origin/main",
    unchanged: 1998,
    unlisted: ["other/*"],
    no_longer_managed: released,
  },
});

describe("a plan of what changed since a revision", () => {
  it("prints the change's own differences first and what the service already had apart", () => {
    expect(renderPlan(partial(["github/acme/old: the webhook list"]), "text")).toBe(
      [
        "~ github/acme/api/branch_protection/main will be updated",
        "    required_linear_history: false → true",
        "    note: selected by acme/* where team=web (forgeplan.yaml:3)",
        "",
        "Already differs on the service, not changed since origin/main:",
        "",
        "~ github/acme/api/branch_protection/main will be updated",
        "    enforce_admins: false → true",
        "",
        "+ github/acme/web/branch_protection/main will be created",
        "    + enforce_admins: true",
        "",
        "Plan: 1 to create, 1 to update, 0 to delete, 0 to report, 0 unchanged.",
        "Left out as unchanged since origin/main: 1998 resources, and the repositories of other/* (not listed: nothing they set changed). For the whole plan, plan without --changed-from (in the Action: changed-from: none).",
        "No longer in the configuration, left as they are on the service: github/acme/old: the webhook list.",
        "",
      ].join("\n"),
    );
  });

  it("keeps the note of what was left out in the comment however much of it is cut", () => {
    const released = Array.from(
      { length: 25 },
      (_, index) => `github/acme/r${index}: the webhook list`,
    );
    const markdown = renderPlan(partial(released), "markdown", { maxLength: 1500 });
    expect(markdown.length).toBeLessThanOrEqual(1500);
    expect(markdown).toContain("_Left out as unchanged since origin/main: 1998 resources");
    expect(markdown).toContain("github/acme/r19: the webhook list, and 5 more._");
    const whole = renderPlan(partial(), "markdown");
    expect(whole).toContain(
      "<details><summary>ℹ️ Already differs on the service, not changed since origin/main: 2 resources</summary>",
    );
    expect(whole.indexOf("<b>github/acme/api</b>: 1 to update")).toBeLessThan(
      whole.indexOf("Already differs on the service"),
    );
    expect(whole).not.toContain("<b>github/acme/web</b>");
  });

  it("shows every difference as the plan's own in a plan that is not partial", () => {
    const text = renderPlan(makePlan([driftOnly]), "text");
    expect(text).toContain("+ enforce_admins: true");
    expect(text).not.toContain("Already differs");
  });

  it("is saved with its marker, which the plan file checks", () => {
    const text = renderPlan(partial(), "json");
    const read = readPlanFile(text, "plan.json", ["branch_protection"]);
    expect(read.partial).toEqual(partial().partial);
    expect(read.changes[0]!.diff[0]!.preexisting).toBe(true);
    const damaged = text.replace('"unchanged": 1998', '"unchanged": -1');
    expect(() => readPlanFile(damaged, "plan.json", ["branch_protection"])).toThrow(
      new PlanFileError("plan.json: partial.unchanged: Too small: expected number to be >=0"),
    );
  });
});
