import { describe, expect, it } from "vitest";
import { errorLines, stateOf, yaml } from "./helpers.js";

describe("a GitLab target's limits", () => {
  it("keeps limits as written, and leaves it out where the host decides", () => {
    const state = stateOf({
      "a.yaml": yaml`
        version: 1
        targets:
          com: { type: gitlab, limits: gitlab.com, base_url: "https://gitlab.example.com" }
          own: { type: gitlab, limits: none }
          plain: { type: gitlab }
      `,
    });
    const limits = Object.fromEntries(state.targets.map((target) => [target.name, target.limits]));
    expect(limits).toEqual({ com: "gitlab.com", own: "none", plain: undefined });
  });

  it("refuses another value, and the key on a GitHub target", () => {
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          targets:
            a: { type: gitlab, limits: fast }
            b: { type: github, limits: gitlab.com }
        `,
      }),
    ).toEqual([
      'a.yaml:3:30: targets.a.limits: expected one of "gitlab.com", "none", found the string "fast"',
      "a.yaml:4:30: targets.b.limits: limits is for GitLab targets: GitHub's are paced as the service reports them",
    ]);
  });
});
