import type { ApplyReport, Plan } from "../core/plan.js";
import { ordered, planData, planFileChunks, planFileText } from "../core/plan-file.js";
import { isPlainObject } from "../core/plain.js";
import { redact } from "./value.js";

/**
 * The contract's JSON. A plan prints exactly as its plan file is written (src/core/plan-file.ts);
 * an apply report wraps its outcomes and the verifying plan in the same key order.
 */
const REPORT_KEYS = ["outcomes", "verification", "verified"];
const OUTCOME_KEYS = ["address", "kind", "action", "outcome", "request", "status", "message"];

export function* planJsonChunks(input: Plan): Generator<string> {
  yield* planFileChunks(input);
}

export function planJson(input: Plan): string {
  return planFileText(input);
}

export function applyReportJson(input: ApplyReport): string {
  const report = ordered(redact(input), REPORT_KEYS);
  if (!isPlainObject(report)) return `${JSON.stringify(report, null, 2)}\n`;
  report.outcomes = Array.isArray(report.outcomes)
    ? report.outcomes.map((o) => ordered(o, OUTCOME_KEYS))
    : report.outcomes;
  if ("verification" in report) report.verification = planData(report.verification);
  return `${JSON.stringify(report, null, 2)}\n`;
}
