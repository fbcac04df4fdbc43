import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/config/limits.js";
import { errorLines, stateOf, yaml } from "./helpers.js";

/**
 * Loading in time proportional to the expanded input: aliases are resolved from one index of the
 * document, merge keys expand once per use, and repeats are found by map. (The timings are in
 * bench/load-hostile.js; these tests pin what those inputs must load to.)
 */
describe("merge keys", () => {
  it("merge a mapping into each entry, under the entry's own keys", () => {
    const state = stateOf({
      "a.yaml": yaml`
        version: 1
        profiles:
          base: &base
            branch_protection:
              main: { enforce_admins: true }
        repositories:
          - { name: acme/api, <<: *base }
          - name: acme/web
            <<: *base
            branch_protection: { dev: { allow_force_pushes: false } }
      `,
    });
    expect(state.repositories.map((entry) => entry.settings.branch_protection)).toEqual([
      { main: { enforce_admins: true } },
      { dev: { allow_force_pushes: false } },
    ]);
  });

  it("take a list, the first mapping winning a key, and follow nested merges", () => {
    const state = stateOf({
      "a.yaml": yaml`
        version: 1
        profiles:
          one: { branch_protection: { main: &one { enforce_admins: true, allow_deletions: false } } }
          two:
            branch_protection:
              main: &two { <<: *one, enforce_admins: false, lock_branch: true }
        repositories:
          - name: acme/api
            branch_protection:
              main: { <<: [*two, *one], required_linear_history: true }
      `,
    });
    expect(
      (state.repositories[0]!.settings.branch_protection as Record<string, unknown>).main,
    ).toEqual({
      required_linear_history: true,
      enforce_admins: false,
      lock_branch: true,
      allow_deletions: false,
    });
  });

  it("point errors inside a merged mapping at the place it was written", () => {
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          profiles:
            base: &base
              branch_protection: { main: { enforce_admin: true } }
          repositories:
            - { name: acme/api, <<: *base }
        `,
      }),
    ).toEqual([
      'a.yaml:4:34: profiles.base.branch_protection.main.enforce_admin: unknown key "enforce_admin"; did you mean "enforce_admins"?',
      'a.yaml:4:34: repositories[0].branch_protection.main.enforce_admin: unknown key "enforce_admin"; did you mean "enforce_admins"?',
    ]);
  });

  it("refuse a merge of something that is not a mapping", () => {
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          repositories:
            - { name: &name acme/api }
            - { name: acme/web, <<: *name }
            - { name: acme/www, <<: [{ owner_type: user }, 3] }
        `,
      }),
    ).toEqual([
      'a.yaml:4:27: repositories[1]["<<"]: a merge key (<<) takes a mapping, an alias of one, or a list of them',
      'a.yaml:5:50: repositories[2]["<<"]: a merge key (<<) takes a mapping, an alias of one, or a list of them',
    ]);
  });

  it("count toward the alias-expansion limit", () => {
    let text = "version: 1\na0: &a0 {k0: [x, x, x, x, x, x, x, x, x]}\n";
    for (let level = 1; level < 10; level++) {
      const merges = Array.from({ length: 9 }, (_, index) => `m${index}: {<<: *a${level - 1}}`);
      text += `a${level}: &a${level} {${merges.join(", ")}}\n`;
    }
    const errors = errorLines({ "bomb.yaml": text });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(
      `aliases expand to more than ${LIMITS.maxAliasValues} values; refusing what looks like an alias bomb`,
    );
  });
});

describe("aliases", () => {
  it("refer to the last anchor of their name written before them", () => {
    const state = stateOf({
      "a.yaml": yaml`
        version: 1
        profiles:
          one: &p { branch_protection: { main: { enforce_admins: true } } }
          two: &p { branch_protection: { main: { enforce_admins: false } } }
        repositories:
          - { name: acme/api, <<: *p }
      `,
    });
    expect(
      (state.repositories[0]!.settings.branch_protection as Record<string, unknown>).main,
    ).toEqual({ enforce_admins: false });
  });
});

describe("many entries naming one repository", () => {
  it("still report a duplicate with both positions", () => {
    const lines = ["version: 1", "repositories:"];
    const count = 5000;
    for (let index = 0; index < count; index++) {
      lines.push("- name: acme/api");
      if (index === 0 || index === count - 1) {
        lines.push("  branch_protection: {main: {enforce_admins: true}}");
      }
    }
    expect(errorLines({ "a.yaml": `${lines.join("\n")}\n` })).toEqual([
      `a.yaml:${count + 4}:29: repositories[${count - 1}].branch_protection.main: the protection of branch main of acme/api is also defined at a.yaml:4 (repositories[0].branch_protection.main); define it in one place`,
    ]);
  });

  it("keep each branch's single definition when every entry defines another branch", () => {
    const entries = Array.from(
      { length: 3000 },
      (_, index) =>
        `  - { name: acme/api, branch_protection: { b${index}: { lock_branch: true } } }`,
    );
    const state = stateOf({ "a.yaml": `version: 1\nrepositories:\n${entries.join("\n")}\n` });
    expect(state.repositories).toHaveLength(3000);
    expect(state.repositories[2999]!.settings.branch_protection).toEqual({
      b2999: { lock_branch: true },
    });
  });

  it("report a default written in two files, found by path rather than by scanning", () => {
    const branches = (from: number) =>
      Array.from({ length: 2000 }, (_, index) => `    b${from + index}: { lock_branch: true }`);
    expect(
      errorLines({
        "a.yaml": `version: 1\ndefaults:\n  branch_protection:\n${branches(0).join("\n")}\n`,
        "b.yaml": `version: 1\ndefaults:\n  branch_protection:\n${branches(1999).join("\n")}\n`,
      }),
    ).toEqual([
      "b.yaml:4:27: defaults.branch_protection.b1999.lock_branch: also set in the defaults at a.yaml:2003 (defaults.branch_protection.b1999.lock_branch); write each default in one file",
    ]);
  });
});
