import { describe, expect, it } from "vitest";
import { globToRegExp, selectsProject } from "../../src/config/glob.js";
import { settingsOf } from "../../src/engine/expand.js";
import { errorLines, stateOf, yaml } from "./helpers.js";

describe("targets say their family", () => {
  it("takes github and gitlab, and the older repository and planning for the same families", () => {
    const state = stateOf({
      "a.yaml": yaml`
        version: 1
        targets:
          hub: { type: github }
          lab: { type: gitlab, base_url: "https://gitlab.example" }
          ghe: { type: repository, base_url: "https://ghe.example/api/v3" }
          old: { type: planning }
      `,
    });
    expect(state.targets.map(({ name, type, tokenEnv }) => [name, type, tokenEnv])).toEqual([
      ["hub", "github", "GITHUB_TOKEN"],
      ["lab", "gitlab", "GITLAB_TOKEN"],
      ["ghe", "github", "GITHUB_TOKEN"],
      ["old", "gitlab", "GITLAB_TOKEN"],
    ]);
  });

  it("names the family an entry needs", () => {
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          targets:
            hub: { type: github }
          projects:
            - project: acme/api
              boards_absent: [{ id: 2 }]
        `,
      }),
    ).toEqual([
      "a.yaml:5:5: projects[0]: no GitLab target is defined; add one under targets (type: gitlab)",
    ]);
  });
});

describe("project entries", () => {
  const files = {
    "a.yaml": yaml`
      version: 1
      project_defaults:
        boards_absent: [{ name: Legacy triage }]
      project_profiles:
        quiet:
          boards_absent: [{ name: Old sprint }]
      projects:
        - project: acme/**
          exclude: [acme/legacy-*, acme/platform/*]
        - project: acme/platform/tools
          profiles: [quiet]
        - project: 42
    `,
  };
  const [glob, named, byId] = stateOf(files).projects;

  it("select by glob below a group, by full path, and by numeric id", () => {
    expect(glob!.selector).toEqual({
      kind: "glob",
      owner: "acme",
      pattern: "**",
      exclude: ["legacy-*", "platform/*"],
    });
    expect(named!.selector).toEqual({ kind: "name", owner: "acme/platform", repo: "tools" });
    expect(byId!.selector).toEqual({ kind: "name", owner: "", repo: "42" });
    expect([glob, named, byId].map((entry) => entry!.scope)).toEqual([
      "project",
      "project",
      "project",
    ]);
  });

  it("layer project_defaults, then the entry's project_profiles, then its own keys", () => {
    expect(glob!.settings).toEqual({ boards_absent: [{ name: "Legacy triage" }] });
    expect(named!.settings).toEqual({ boards_absent: [{ name: "Old sprint" }] });
    // A named entry refines what a glob that selects the same project set (lists replace).
    expect(settingsOf(stateOf(files).projectDefaults, [glob!, named!])).toEqual({
      boards_absent: [{ name: "Old sprint" }],
    });
  });

  it("refuse what is not a project, exclude on a name, an exclude of another group and an unknown profile", () => {
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          projects:
            - project: acme
            - project: acme/api
              exclude: [acme/web]
            - project: acme/*
              exclude: [other/web]
            - project: acme/web
              profiles: [strict]
            - project: "*/api"
        `,
      }),
    ).toEqual([
      'a.yaml:3:14: projects[0].project: expected a numeric id, a full path such as "acme/api", or a glob over a group\'s projects such as "acme/*" or "acme/**", found the string "acme"',
      "a.yaml:5:14: projects[1].exclude: exclude is only for globs; acme/api names one project",
      "a.yaml:7:15: projects[2].exclude[0]: exclude must name projects of acme, the group the glob lists",
      'a.yaml:10:14: projects[4].project: expected a numeric id, a full path such as "acme/api", or a glob over a group\'s projects such as "acme/*" or "acme/**", found the string "*/api"',
    ]);
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          profiles:
            strict: {}
          projects:
            - project: acme/web
              profiles: [strict]
        `,
      }),
    ).toEqual([
      'a.yaml:6:16: projects[0].profiles[0]: unknown profile "strict"; profiles holds it, but projects entries take theirs from project_profiles',
    ]);
  });
});

describe("globs over a group's projects", () => {
  const glob = (pattern: string, exclude: string[] = []) =>
    ({ kind: "glob", owner: "acme", pattern, exclude }) as const;

  it("keep * and ? within one level; ** crosses subgroups, and **/ matches no level too", () => {
    expect(selectsProject(glob("*"), "acme/api")).toBe(true);
    expect(selectsProject(glob("*"), "acme/platform/tools")).toBe(false);
    expect(selectsProject(glob("**"), "acme/platform/tools")).toBe(true);
    expect(selectsProject(glob("**/tools"), "acme/tools")).toBe(true);
    expect(selectsProject(glob("**/tools"), "acme/platform/infra/tools")).toBe(true);
    expect(selectsProject(glob("*/api"), "acme/platform/api")).toBe(true);
    expect(selectsProject(glob("*/api"), "acme/api")).toBe(false);
    expect(selectsProject(glob("svc-?"), "acme/svc-1")).toBe(true);
    expect(selectsProject(glob("[a-c]*"), "acme/platform/api")).toBe(false);
    expect(globToRegExp("[a-c]*", true).test("b/x")).toBe(false);
  });

  it("match case-insensitively, only below their group, and leave out what exclude names", () => {
    expect(selectsProject(glob("**"), "ACME/Platform/Tools")).toBe(true);
    expect(selectsProject(glob("**"), "acmecorp/api")).toBe(false);
    expect(selectsProject(glob("**", ["platform/*"]), "acme/platform/tools")).toBe(false);
    expect(selectsProject(glob("**", ["platform/*"]), "acme/platform/infra/tools")).toBe(true);
    expect(selectsProject({ kind: "name", owner: "", repo: "42" }, "42")).toBe(true);
  });
});
