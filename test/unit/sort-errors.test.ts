import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ConfigError, formatConfigError, sortErrors } from "../../src/config/errors.js";
import { runs } from "../kinds/harness.js";

/** What sortErrors did before it looked for repeats among the errors of one place only. */
function byTextThenPlace(errors: ConfigError[], fileOrder: readonly string[]): ConfigError[] {
  const rank = new Map(fileOrder.map((file, index) => [file, index]));
  const seen = new Set<string>();
  return errors
    .filter((error) => {
      const key = formatConfigError(error);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort(
      (a, b) =>
        (rank.get(a.file) ?? Number.MAX_SAFE_INTEGER) -
          (rank.get(b.file) ?? Number.MAX_SAFE_INTEGER) ||
        a.line - b.line ||
        a.column - b.column,
    );
}

describe("sortErrors", () => {
  it("orders by file, line and column, keeps the order of one place, and drops repeats", () => {
    // Errors of several files, or (most failed loads) all of one.
    const file = fc.constantFrom("a.yaml", "b.yaml", "other.yaml");
    const error = (files: fc.Arbitrary<string>) =>
      fc.record({
        file: files,
        line: fc.integer({ min: 1, max: 4 }),
        column: fc.integer({ min: 1, max: 3 }),
        // "x: y" with no path prints as "y" at path "x" does: both are one repeat.
        path: fc.constantFrom("", "x", "x.y"),
        message: fc.constantFrom("y", "x: y", "unknown key"),
      });
    const errors = fc.oneof(
      fc.array(error(file), { maxLength: 60 }),
      file.chain((one) => fc.array(error(fc.constant(one)), { maxLength: 60 })),
    );
    fc.assert(
      fc.property(errors, (errors) => {
        const order = ["b.yaml", "a.yaml"];
        const sorted = sortErrors([...errors], order);
        expect(sorted).toEqual(byTextThenPlace([...errors], order));
        // The same objects, not copies.
        for (const kept of sorted) expect(errors).toContain(kept);
      }),
      runs(20261132, 500),
    );
  });
});
