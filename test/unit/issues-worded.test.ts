import { describe, expect, it } from "vitest";
import * as z from "zod";
import { ERRORS_LISTED, listedErrors, sortErrors } from "../../src/config/errors.js";
import { issuesToErrors } from "../../src/config/issues.js";
import { rawIssues } from "../../src/config/raw-issues.js";
import { parseSource } from "../../src/config/source.js";

/**
 * Of a file's problems, every one is placed (they are listed in file order) but only those listed
 * are worded: a file built to fail has hundreds of thousands, and wording them all (zod's message,
 * a "did you mean" each) was most of the time it took to report the first 100 (issue #35).
 */
describe("errors worded when read", () => {
  const entries = 1_000;
  const text = Array.from({ length: entries }, (_, index) => `- ${index}`).join("\n");

  function load() {
    let worded = 0;
    const refused = z.number().refine(() => false, {
      error: (issue) => {
        worded++;
        return `refused ${String(issue.input)}`;
      },
    });
    const parsed = parseSource("a.yaml", text);
    if (!parsed.ok) throw new Error("the file should parse");
    const errors = issuesToErrors(rawIssues(z.array(refused), parsed.source.value), parsed.source);
    return { errors, worded: () => worded };
  }

  it("places every problem and words none until read", () => {
    const { errors, worded } = load();
    expect(errors).toHaveLength(entries);
    expect(errors.map((error) => error.line)).toEqual(
      Array.from({ length: entries }, (_, index) => index + 1),
    );
    expect(worded()).toBe(0);
  });

  it("words only the listed ones, and hands them out as plain objects", () => {
    const { errors, worded } = load();
    // Reversed: sorting puts them back in file order without reading their words.
    const listed = listedErrors(sortErrors([...errors].reverse(), ["a.yaml"]));
    expect(worded()).toBe(ERRORS_LISTED);
    expect(listed[0]).toEqual({
      file: "a.yaml",
      line: 1,
      column: 3,
      path: "[0]",
      message: "refused 0",
    });
    expect(Object.keys(listed[1]!)).toEqual(["file", "line", "column", "path", "message"]);
    expect(JSON.parse(JSON.stringify(listed[ERRORS_LISTED - 1]))).toEqual({
      file: "a.yaml",
      line: ERRORS_LISTED,
      column: 3,
      path: `[${ERRORS_LISTED - 1}]`,
      message: `refused ${ERRORS_LISTED - 1}`,
    });
    expect(listed[ERRORS_LISTED]!.message).toBe(
      `1,000 problems in all; the 900 from here on are not listed: fix the ${ERRORS_LISTED} above first`,
    );
  });
});
