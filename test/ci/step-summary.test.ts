import { describe, expect, it } from "vitest";
import {
  fitStepSummary,
  STEP_SUMMARY_BYTES,
  SUMMARY_CUT_NOTE,
} from "../../src/action/step-summary.js";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** Lines of `row` up to `maxLength` characters, as a renderer that cuts between parts does. */
function rows(row: string, total: number) {
  return (maxLength: number) => {
    const kept = Math.min(total, Math.floor(maxLength / (row.length + 1)));
    return `${row}\n`.repeat(kept);
  };
}

describe("the job summary within GitHub's 1 MiB a step", () => {
  it("leaves a summary that fits as it is", () => {
    const text = "### forgeplan plan\n\nNo changes.\n";
    expect(fitStepSummary(() => text)).toBe(text);
  });

  it("counts bytes, not characters: a plan of three-byte characters is rendered shorter to fit", () => {
    const asked: number[] = [];
    const render = rows("| 東京 | 設定を変更する |", 200_000);
    const fitted = fitStepSummary((maxLength) => (asked.push(maxLength), render(maxLength)));
    // 900,000 characters of this would be about 2.5 MB, which GitHub would drop whole.
    expect(bytes(render(900_000))).toBeGreaterThan(STEP_SUMMARY_BYTES);
    expect(bytes(fitted)).toBeLessThanOrEqual(STEP_SUMMARY_BYTES);
    expect(bytes(fitted)).toBeGreaterThan(STEP_SUMMARY_BYTES * 0.9);
    expect(asked[0]).toBe(STEP_SUMMARY_BYTES);
    expect(asked.length).toBeGreaterThan(1);
    // Cut by the renderer, between its parts: no note of ours.
    expect(fitted.endsWith(SUMMARY_CUT_NOTE)).toBe(false);
    expect(fitted).toBe(render(asked.at(-1)!));
  });

  it("cuts a text that takes no length (apply's report) after a whole line, with a note", () => {
    const report = "| ✅ applied | `github/acme/web/branch_protection/main` | update |\n".repeat(
      20_000,
    );
    expect(bytes(report)).toBeGreaterThan(STEP_SUMMARY_BYTES);
    const fitted = fitStepSummary(() => report);
    expect(bytes(fitted)).toBeLessThanOrEqual(STEP_SUMMARY_BYTES);
    expect(fitted.endsWith(SUMMARY_CUT_NOTE)).toBe(true);
    const kept = fitted.slice(0, -SUMMARY_CUT_NOTE.length);
    expect(report.startsWith(kept)).toBe(true);
    expect(kept.endsWith("| update |\n")).toBe(true);
    expect(bytes(kept)).toBeGreaterThan(STEP_SUMMARY_BYTES - 200);
  });
});
