import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/resources/index.js";
import { repoRoot } from "../helpers/cli.js";
import { FIXTURES, VARIANTS } from "./fixtures/index.js";

/** No kind can skip the conformance suite: registering one without a fixture fails here. */
describe("every registered kind is held by the conformance suite", () => {
  it.each(KINDS.map((kind) => kind.name))(
    "%s has a fixture and a test file that runs it",
    (name) => {
      expect(FIXTURES[name], `test/kinds/fixtures/ has no fixture for ${name}`).toBeDefined();
      const file = join(repoRoot, "test", "kinds", `${name}.test.ts`);
      expect(existsSync(file), `test/kinds/${name}.test.ts runs the suite`).toBe(true);
      expect(readFileSync(file, "utf8")).toContain(`conformance(${JSON.stringify(name)});`);
    },
  );

  it("has no fixture for a kind the registry does not have", () => {
    const names = KINDS.map((kind) => kind.name);
    expect(Object.keys(FIXTURES).filter((name) => !names.includes(name))).toEqual([]);
    expect(Object.keys(VARIANTS).filter((name) => !names.includes(name))).toEqual([]);
  });

  const variants = Object.entries(VARIANTS).flatMap(([name, named]) =>
    Object.entries(named).map(([variant, fixture]) => [name, variant, fixture] as const),
  );
  it.each(variants)(
    "%s's %s fixture is of its kind and has a test file that runs it",
    (name, variant, fixture) => {
      expect(fixture.kind).toBe(name);
      const file = join(repoRoot, "test", "kinds", `${name}.${variant}.test.ts`);
      expect(existsSync(file), `test/kinds/${name}.${variant}.test.ts runs the suite`).toBe(true);
      expect(readFileSync(file, "utf8")).toContain(
        `conformance(${JSON.stringify(name)}, ${JSON.stringify(variant)});`,
      );
    },
  );
});

describe("docs/kinds.md", () => {
  it("states the registry's order, which is the order a repository's changes are applied in", () => {
    const page = readFileSync(join(repoRoot, "docs", "kinds.md"), "utf8");
    const stated = page.slice(page.indexOf("in the registry's order (`src/resources/index.ts`):"));
    const list = stated.slice(0, stated.indexOf(" — ")).split(":")[1] ?? "";
    const names = [...list.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]);
    expect(names).toEqual(KINDS.map((kind) => kind.name));
  });
});
