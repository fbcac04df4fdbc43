import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fileSchema } from "../../src/config/schema.js";
import { loadDesiredState } from "../../src/engine/desired.js";
import { configSpec } from "../../src/resources/index.js";
import { runs } from "../kinds/harness.js";

// The loader checks list entries by the keys they write (listCheckedByWrittenKeys); the JSON Schema
// is drawn from the whole mapping. Both must find exactly the same issues, in the same order.
const checking = fileSchema(configSpec, "check");
const describing = fileSchema(configSpec, "describe");

function issues(schema: typeof checking, value: unknown) {
  const result = schema.safeParse(value);
  return result.success
    ? []
    : result.error.issues.map(({ code, path, message }) => ({ code, path, message }));
}

function expectSameIssues(value: unknown) {
  expect(issues(checking, value)).toEqual(issues(describing, value));
}

// Values each key may take, good and bad; objects are made once, so entries share them by
// identity as entries merging one anchor do.
const REPOSITORY_VALUES: Record<string, unknown[]> = {
  name: ["acme/api", "acme/*", "not a name", 5],
  exclude: [["acme/legacy"], ["other/x"], "acme/x"],
  where: [{ properties: { team: "core" } }, { properties: {} }, { propertys: 1 }],
  target: ["github", 7],
  owner_type: ["user", "company"],
  profiles: [["strict"], "strict"],
  settings: [{ description: "API" }, { description: 5 }, { has_wiki: false, unknown: 1 }, null],
  branch_protection: [
    { main: { enforce_admins: true } },
    { main: { enforce_admins: "yes" } },
    { main: null, dev: { allow_force_pushes: false } },
  ],
  labels: [{ labels: [{ name: "bug", color: "ff0000" }] }, { labels: "bug" }],
  webhooks: [{ hooks: [] }, { hooks: [{ url: 5 }] }],
  nmae: ["acme/api"],
  settigns: [{}],
};
const PROJECT_VALUES: Record<string, unknown[]> = {
  project: ["acme/api", "acme/*", 42, "no"],
  exclude: [["acme/old"], ["other/x"]],
  target: ["gitlab"],
  profiles: [["base"]],
  settings: [{ description: "x" }, { description: 1 }],
  labels: [{ labels: [] }, { labels: [{ name: 1 }] }],
  projekt: [1],
};

const entryOf = (pool: Record<string, unknown[]>) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 5, "acme/api", []) },
    {
      weight: 12,
      arbitrary: fc
        .subarray(Object.keys(pool))
        .chain((keys) =>
          fc
            .tuple(...keys.map((key) => fc.constantFrom(...pool[key]!)))
            .map((values) => Object.fromEntries(keys.map((key, index) => [key, values[index]]))),
        ),
    },
  );

describe("checking list entries by the keys they write", () => {
  it("refuses a list that is not one as zod's array does", () => {
    for (const value of [null, 5, "acme/api", true, { name: "acme/api" }]) {
      expectSameIssues({ version: 1, repositories: value, projects: value });
      expect(issues(checking, { version: 1, repositories: value }).length).toBeGreaterThan(0);
    }
  });

  it("finds the issues the whole mapping finds, in order, on random files", () => {
    fc.assert(
      fc.property(
        fc.array(entryOf(REPOSITORY_VALUES), { maxLength: 12 }),
        fc.array(entryOf(PROJECT_VALUES), { maxLength: 6 }),
        (repositories, projects) => {
          expectSameIssues({ version: 1, repositories, projects });
        },
      ),
      runs(20261130, 400),
    );
  });

  it("checks an entry against its whole mapping past the sets of keys it keeps", () => {
    // 2^9 sets of written keys, each entry with one bad value: past the 256 kept, the whole
    // mapping checks, and the issues are still the same.
    const optional = ["exclude", "target", "owner_type", "profiles", "settings", "labels"];
    const extra = ["webhooks", "branch_protection", "nmae"];
    const keys = [...optional, ...extra];
    const repositories = Array.from({ length: 2 ** keys.length }, (_, mask) => {
      const entry: Record<string, unknown> = { name: mask % 2 === 0 ? "acme/*" : "acme/api" };
      keys.forEach((key, bit) => {
        if ((mask >> bit) & 1) entry[key] = REPOSITORY_VALUES[key]![bit % 2]!;
      });
      return entry;
    });
    expectSameIssues({ version: 1, repositories });
    expect(issues(checking, { version: 1, repositories }).length).toBeGreaterThan(256);
  });

  it("checks a value shared by many entries once it passed, and each time while it fails", () => {
    const good = { main: { enforce_admins: true } };
    const bad = { main: { enforce_admins: "yes" } };
    const repositories = [
      { name: "acme/a", branch_protection: good },
      { name: "acme/b", branch_protection: good },
      { name: "acme/c", branch_protection: bad },
      { name: "acme/d", branch_protection: bad },
      // Passed under one key is no pass under another.
      { name: "acme/e", settings: good },
    ];
    const found = issues(checking, { version: 1, repositories });
    expect(found.map((issue) => issue.path.slice(0, 3))).toEqual([
      ["repositories", 2, "branch_protection"],
      ["repositories", 3, "branch_protection"],
      ["repositories", 4, "settings"],
    ]);
    expect(found).toEqual(issues(describing, { version: 1, repositories }));
  });
});

describe("an anchor merged into many entries", () => {
  it("is one value, and each use of a faulty one is reported where it is used", () => {
    const text = [
      "version: 1",
      "targets: { github: { type: github } }",
      "profiles:",
      "  base: &base { branch_protection: { main: { enforce_admins: true } } }",
      "repositories:",
      "  - { name: acme/a, <<: *base }",
      "  - { name: acme/b, <<: *base }",
      "",
    ].join("\n");
    const loaded = loadDesiredState(["f.yaml"], { cwd: "/", env: {}, readFile: () => text });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const [a, b] = loaded.state.repositories;
    const own = (entry: typeof a) => entry!.layers.at(-1)!.value as Record<string, unknown>;
    expect(own(a)).toEqual({ branch_protection: { main: { enforce_admins: true } } });
    expect(own(b).branch_protection).toBe(own(a).branch_protection);

    const faulty = text.replace("enforce_admins: true", "enforce_admins: yes");
    const failed = loadDesiredState(["f.yaml"], { cwd: "/", env: {}, readFile: () => faulty });
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.errors.map((error) => [error.line, error.path])).toEqual([
      [4, "profiles.base.branch_protection.main.enforce_admins"],
      // Where the value is written, for each entry that merges it.
      [4, "repositories[0].branch_protection.main.enforce_admins"],
      [4, "repositories[1].branch_protection.main.enforce_admins"],
    ]);
  });
});
