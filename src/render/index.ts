import type { ApplyReport, Plan } from "../core/plan.js";
import { applyReportJson, planJson, planJsonChunks } from "./json.js";
import { applyReportMarkdown, planMarkdown } from "./markdown.js";
import type { Format, RenderOptions } from "./options.js";
import { applyReportText, planText } from "./text.js";

/**
 * Renderers: pure functions from a plan or an apply report to text for a terminal, markdown for a
 * pull-request comment or job summary, and the contract's JSON. Secrets print "(sensitive)" in all three.
 */

export { applyJsonChunks } from "./json.js";
export { COMMENT_MARKER } from "./markdown.js";
export { FORMATS, type Format, type RenderOptions } from "./options.js";
export { formatValue } from "./value.js";

export function renderPlan(plan: Plan, format: Format, options: RenderOptions = {}): string {
  switch (format) {
    case "text":
      return planText(plan, options);
    case "markdown":
      return planMarkdown(plan, options);
    case "json":
      return planJson(plan);
  }
}

/**
 * The same output as `renderPlan`, in pieces: JSON comes one change at a time so very large plans are
 * written without being held as one string; the other formats come whole.
 */
export function* renderPlanChunks(
  plan: Plan,
  format: Format,
  options: RenderOptions = {},
): Generator<string> {
  if (format === "json") yield* planJsonChunks(plan);
  else yield renderPlan(plan, format, options);
}

export function renderApplyReport(
  report: ApplyReport,
  format: Format,
  options: RenderOptions = {},
): string {
  switch (format) {
    case "text":
      return applyReportText(report, options);
    case "markdown":
      return applyReportMarkdown(report, options);
    case "json":
      return applyReportJson(report);
  }
}
