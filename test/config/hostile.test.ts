import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/config/source.js";
import { errorLines, stateOf } from "./helpers.js";

/** Input built to exhaust the loader is refused quickly, with one positioned error. */
describe("hostile YAML", () => {
  it("refuses an alias bomb before expanding it", () => {
    let text = "version: 1\na0: &a0 [x, x, x, x, x, x, x, x, x]\n";
    for (let level = 1; level < 10; level++) {
      text += `a${level}: &a${level} [${Array(9)
        .fill(`*a${level - 1}`)
        .join(", ")}]\n`;
    }
    const started = Date.now();
    const errors = errorLines({ "bomb.yaml": text });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(errors).toEqual([
      `bomb.yaml:8:10: a6[0]: aliases expand to more than ${LIMITS.maxAliasValues} values; refusing what looks like an alias bomb`,
    ]);
  });

  it("keeps ordinary anchors and aliases", () => {
    const text = [
      "version: 1",
      "profiles:",
      "  strict: &strict",
      "    branch_protection: { main: { enforce_admins: true } }",
      "defaults: *strict",
      "repositories: [{ name: acme/api }]",
      "",
    ].join("\n");
    const state = stateOf({ "a.yaml": text });
    expect(state.repositories[0]!.settings.branch_protection).toEqual({
      main: { enforce_admins: true },
    });
  });

  it("refuses an alias to a value that contains it", () => {
    expect(errorLines({ "a.yaml": "version: 1\nx: &x [1, *x]\n" })).toEqual([
      "a.yaml:2:11: x[1]: alias *x refers to a value that contains itself",
    ]);
  });

  it("refuses deep nesting without overflowing the stack", () => {
    const depth = 20_000;
    const errors = errorLines({
      "deep.yaml": `version: 1\nx: ${"[".repeat(depth)}${"]".repeat(depth)}\n`,
    });
    expect(errors).toEqual([
      `deep.yaml:2:${3 + LIMITS.maxDepth}: nesting is deeper than ${LIMITS.maxDepth} levels`,
    ]);
  });

  it("refuses deep block nesting", () => {
    const lines = Array.from({ length: 200 }, (_, level) => `${" ".repeat(level)}k:`);
    const errors = errorLines({ "deep.yaml": `version: 1\nx:\n${lines.join("\n")}\n` });
    expect(errors).toEqual([
      `deep.yaml:${3 + LIMITS.maxDepth}:${1 + LIMITS.maxDepth}: nesting is deeper than ${LIMITS.maxDepth} levels`,
    ]);
  });

  it("refuses aliases that nest deeper than the limit", () => {
    const nested = `${"[".repeat(40)}${"]".repeat(40)}`;
    const errors = errorLines({
      "a.yaml": `version: 1\na: &a ${nested}\nb: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[*a]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n`,
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^a\.yaml:3:34: b(\[0\]){30}: alias \*a nests values deeper than 64 levels$/,
    );
  });

  it("refuses a file over the size limit without parsing it", () => {
    const big = `version: 1\n# ${"x".repeat(LIMITS.maxBytes)}\n`;
    expect(errorLines({ "big.yaml": big })).toEqual([
      `big.yaml:1:1: the file is larger than the 10 MiB limit (${Buffer.byteLength(big)} bytes)`,
    ]);
  });

  it("refuses binary content", () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);
    expect(errorLines({ "image.yaml": bytes })).toEqual([
      "image.yaml:3:1: binary content (a NUL byte); expected UTF-8 text",
    ]);
  });
});
