import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ERRORS_LISTED, formatConfigError } from "../../src/config/errors.js";
import { LIMITS } from "../../src/config/limits.js";
import { parseSource } from "../../src/config/source.js";
import { loadDesiredState, plan } from "../../src/index.js";
import { runInProcess } from "../helpers/cli.js";
import { runs } from "../kinds/harness.js";
import { errorLines, loadFiles, stateOf } from "./helpers.js";

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

  it("finds nesting too deep where js-yaml stops, as reading the whole file finds it", () => {
    // Levels of block mappings and lists, then of flow collections, some of them written as a
    // block mapping's key; whatever the depth, the error (or none) must be the one the YAML
    // library gives reading all of the file, which a tab in a first comment line makes it do.
    const level = fc.constantFrom("[", "[a, ", "{k: ", "{a: 1, k: ", "&x [", "[\n  ");
    const block = fc.constantFrom("map", "list");
    const document = fc
      .record({
        blocks: fc.array(block, { maxLength: 40, size: "max" }),
        // Around the limit: arrays of the default size would rarely nest 64 deep.
        flows: fc
          .integer({ min: 30, max: 90 })
          .chain((length) => fc.array(level, { minLength: length, maxLength: length })),
        asKey: fc.boolean(),
        after: fc.constantFrom("", "# done\n", "y: 1\n", "y: [[[]]]\n"),
      })
      .map(({ blocks, flows, asKey, after }) => {
        let text = "version: 1\nx:\n";
        let indent = "  ";
        for (const kind of blocks) {
          text += kind === "map" ? `${indent}k:\n` : `${indent}-\n`;
          indent += "  ";
        }
        const closers = flows.map((open) => (open.includes("{") ? "}" : "]")).reverse();
        const flow = `${flows.join("")}z${closers.join("")}`;
        text += asKey ? `${indent}${flow}: v\n` : `${indent}${flow}\n`;
        return text + after;
      });
    const tooDeep = (text: string, shift: number) => {
      const parsed = parseSource("d.yaml", text);
      const error = parsed.ok
        ? undefined
        : parsed.errors.find((e) => e.message.startsWith("nesting"));
      return error === undefined ? undefined : [error.line - shift, error.column];
    };
    fc.assert(
      fc.property(document, (text) => {
        expect(tooDeep(text, 0)).toEqual(tooDeep(`#\t\n${text}`, 1));
      }),
      runs(20261131, 300),
    );
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

  it("reads two documents of a file with many, and reports the first two's problems", () => {
    // The second document's YAML error is reported; the third's (`]` at 5:4), and the 200,000
    // documents after it, are not read: the file has to be split whatever they hold.
    const text = `version: 1\n---\nx: [\n---\ny: ]\n${"---\n".repeat(200_000)}`;
    expect(errorLines({ "many.yaml": text })).toEqual([
      "many.yaml:2:1: a file holds one YAML document; put the second one in its own file",
      "many.yaml:4:1: YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
    ]);
  });
});

/**
 * A file built to fail everywhere (issue #35, item 11: 100,000 unknown keys printed 100,000 lines and
 * took 14–20 s) lists its first ERRORS_LISTED problems in full and counts the rest in one more line;
 * every command and the library still say the whole count.
 */
describe("a file with thousands of problems", () => {
  const KEYS = 5000;
  const manyUnknown = (keys: number) =>
    [
      "version: 1",
      "defaults:",
      ...Array.from({ length: keys }, (_, i) => `  unknown${String(i).padStart(5, "0")}: 1`),
      "repositories: [{ name: acme/api }]",
      "",
    ].join("\n");
  const unknownLine = (i: number) => {
    const key = `unknown${String(i).padStart(5, "0")}`;
    return new RegExp(`^many\\.yaml:${i + 3}:3: defaults\\.${key}: unknown key "${key}"; `);
  };
  const workspace = () => {
    const cwd = mkdtempSync(join(tmpdir(), "forgeplan-many-errors-"));
    writeFileSync(join(cwd, "many.yaml"), manyUnknown(KEYS));
    return cwd;
  };
  const countLine = `many.yaml:${ERRORS_LISTED + 3}:3: 5,000 problems in all; the 4,900 from here on are not listed: fix the ${ERRORS_LISTED} above first`;

  it("validate prints the first 100 in full and one line counting all of them and the rest", async () => {
    expect(ERRORS_LISTED).toBe(100);
    const result = await runInProcess(["validate", "-c", "many.yaml"], { cwd: workspace() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const lines = result.stderr.split("\n");
    expect(lines).toHaveLength(ERRORS_LISTED + 2); // the listed, the count and the final newline
    for (let i = 0; i < ERRORS_LISTED; i++) expect(lines[i]).toMatch(unknownLine(i));
    // Listed in full: with the hint a reader fixes each by.
    expect(lines[0]).toContain("expected one of: ");
    expect(lines[ERRORS_LISTED]).toBe(countLine);
    expect(lines[ERRORS_LISTED + 1]).toBe("");
  });

  it("plan lists the same and says the whole count", async () => {
    const result = await runInProcess(["plan", "-c", "many.yaml", "--sandbox"], {
      cwd: workspace(),
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(ERRORS_LISTED + 2);
    expect(lines[ERRORS_LISTED]).toBe(countLine);
    expect(lines.at(-1)).toBe(
      "forgeplan: plan: the configuration has 5,000 errors; nothing was read or changed",
    );
  });

  it("the library returns the same list and carries the whole count in problems", async () => {
    const cwd = workspace();
    const loaded = loadDesiredState(["many.yaml"], { cwd, env: {} });
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.problems).toBe(KEYS);
    expect(loaded.errors).toHaveLength(ERRORS_LISTED + 1);
    expect(formatConfigError(loaded.errors[ERRORS_LISTED]!)).toBe(countLine);
    const planned = await plan(["many.yaml"], { cwd, env: {} });
    expect(planned).toEqual({ ok: false, errors: loaded.errors, problems: KEYS });
  });

  it("counts more problems than one call's arguments can hold", () => {
    // 150,000 empty keys, a problem each: spread into one push(), they overflowed the stack.
    const lines = 150_000;
    const text = ["version: 1", "defaults:", ...Array(lines).fill("  :"), ""].join("\n");
    const loaded = loadFiles({ "many.yaml": text });
    expect(loaded.ok ? undefined : loaded.problems).toBe(lines);
    if (!loaded.ok) {
      expect(formatConfigError(loaded.errors[0]!)).toBe(
        "many.yaml:3:3: defaults: keys must be plain strings",
      );
    }
  });

  it("lists every problem up to 101, since a line counting one would say no less", () => {
    const load = (keys: number) => loadFiles({ "many.yaml": manyUnknown(keys) });
    const at101 = load(ERRORS_LISTED + 1);
    expect(at101.ok ? undefined : [at101.problems, at101.errors.length]).toEqual([101, 101]);
    if (!at101.ok) expect(formatConfigError(at101.errors.at(-1)!)).toMatch(unknownLine(100));
    const at102 = load(ERRORS_LISTED + 2);
    expect(at102.ok ? undefined : [at102.problems, at102.errors.length]).toEqual([102, 101]);
    if (!at102.ok) {
      expect(formatConfigError(at102.errors.at(-1)!)).toBe(
        `many.yaml:${ERRORS_LISTED + 3}:3: 102 problems in all; the 2 from here on are not listed: fix the 100 above first`,
      );
    }
  });
});
