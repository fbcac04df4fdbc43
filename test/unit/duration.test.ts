import { expect, it } from "vitest";
import { parseDuration } from "../../src/cli/duration.js";

it("reads durations with units and refuses anything else in one line", () => {
  expect(
    ["90s", "15m", "1h30m", "500ms", "0s"].map((v) => parseDuration("apply", "max-wait", v)),
  ).toEqual([90_000, 900_000, 5_400_000, 500, 0]);
  expect(parseDuration("apply", "max-wait", undefined)).toBeUndefined();
  for (const bad of ["15", "", "1.5m", "m", "10 s", "-5s", "1d"]) {
    expect(() => parseDuration("apply", "max-wait", bad)).toThrow(
      `apply: --max-wait expects a duration such as 90s, 15m or 1h30m, got '${bad}'`,
    );
  }
});
