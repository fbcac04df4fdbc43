import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { thousands } from "../../src/core/thousands.js";

describe("thousands", () => {
  it("writes a number as toLocaleString('en-US') does", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
        ),
        (value) => {
          expect(thousands(value)).toBe(value.toLocaleString("en-US"));
        },
      ),
      { seed: 20261129, numRuns: 500 },
    );
    expect(thousands(499_992)).toBe("499,992");
  });
});
