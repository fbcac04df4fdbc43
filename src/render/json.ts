import type { ApplyReport, Plan } from "../core/plan.js";
import { ordered, planData, planFileChunks, planFileText } from "../core/plan-file.js";
import { isPlainObject } from "../core/plain.js";
import { redact } from "./value.js";

/**
 * The contract's JSON. A plan prints exactly as its plan file is written (src/core/plan-file.ts);
 * an apply report wraps its outcomes and the verifying plan in the same key order.
 */
const REPORT_KEYS = ["outcomes", "verification", "verified", "unchecked"];
const OUTCOME_KEYS = ["address", "kind", "action", "outcome", "request", "status", "message"];

export function* planJsonChunks(input: Plan): Generator<string> {
  yield* planFileChunks(input);
}

export function planJson(input: Plan): string {
  return planFileText(input);
}

/**
 * `apply --format json`: one document, the plan applied (as `plan --format json` prints it) and
 * then what came of it, so the whole output parses as JSON. The plan comes in pieces, as for `plan`.
 */
export function* applyJsonChunks(plan: Plan, report: ApplyReport): Generator<string> {
  const indent = (text: string) => text.replace(/\n/g, "\n  ");
  yield '{\n  "plan": ';
  let held: string | undefined;
  for (const chunk of planJsonChunks(plan)) {
    if (held !== undefined) yield indent(held);
    held = chunk;
  }
  yield indent((held ?? "").trimEnd());
  // The report's own document without its opening brace: its members follow the plan's.
  yield `,\n${applyReportJson(report).slice("{\n".length)}`;
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
