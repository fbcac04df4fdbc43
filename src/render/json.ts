import type { ApplyReport, Plan } from "../core/plan.js";
import { SENSITIVE } from "../core/secret.js";
import { isPlainObject, redact } from "./value.js";

/**
 * The contract's JSON, with keys in a fixed order so the same plan always prints the same bytes.
 * Keys a newer engine adds that are not listed here follow the known ones in their own order.
 */
const PLAN_KEYS = ["format_version", "changes", "summary", "errors"];
const CHANGE_KEYS = [
  "address",
  "kind",
  "action",
  "target",
  "scope",
  "name",
  "diff",
  "requests",
  "findings",
  "notes",
  "live_fingerprint",
  "error",
];
const DIFF_KEYS = ["path", "before", "after", "sensitive"];
const REQUEST_KEYS = ["method", "path", "body"];
const ERROR_KEYS = ["message", "request", "status"];
const SUMMARY_KEYS = ["create", "update", "delete", "report", "no-op"];
const REPORT_KEYS = ["outcomes", "verification", "verified"];
const OUTCOME_KEYS = ["address", "kind", "action", "outcome", "request", "status", "message"];

function ordered(value: unknown, keys: readonly string[]): unknown {
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const key of keys) if (key in value) result[key] = value[key];
  for (const key of Object.keys(value)) if (!(key in result)) result[key] = value[key];
  return result;
}

function list(value: unknown, each: (item: unknown) => unknown): unknown {
  return Array.isArray(value) ? value.map(each) : value;
}

/** A sensitive entry keeps which sides exist (added, removed, changed) but never their values. */
function diffEntry(value: unknown): unknown {
  const entry = ordered(value, DIFF_KEYS);
  if (isPlainObject(entry) && entry.sensitive === true) {
    if ("before" in entry) entry.before = SENSITIVE;
    if ("after" in entry) entry.after = SENSITIVE;
  }
  return entry;
}

function change(value: unknown): unknown {
  const result = ordered(value, CHANGE_KEYS);
  if (!isPlainObject(result)) return result;
  if ("diff" in result) result.diff = list(result.diff, diffEntry);
  if ("requests" in result)
    result.requests = list(result.requests, (r) => ordered(r, REQUEST_KEYS));
  if ("error" in result) result.error = ordered(result.error, ERROR_KEYS);
  return result;
}

function plan(value: unknown): unknown {
  const result = ordered(value, PLAN_KEYS);
  if (!isPlainObject(result)) return result;
  if ("changes" in result) result.changes = list(result.changes, change);
  if ("summary" in result) result.summary = ordered(result.summary, SUMMARY_KEYS);
  return result;
}

function stringify(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

const CHANGES_SLOT = '"changes": []';

/**
 * The plan's JSON in pieces, one change at a time, so a plan of tens of thousands of changes is
 * never held as one string (or as one redacted copy). Joined, the pieces are the same bytes as
 * `JSON.stringify` of the whole plan with a 2-space indent.
 */
export function* planJsonChunks(input: Plan): Generator<string> {
  const frame = stringify(plan(redact({ ...input, changes: [] })));
  const slot = frame.indexOf(CHANGES_SLOT);
  if (input.changes.length === 0 || slot < 0) {
    yield frame;
    return;
  }
  yield `${frame.slice(0, slot)}"changes": [\n`;
  for (const [index, item] of input.changes.entries()) {
    const text = JSON.stringify(change(redact(item)), null, 2).replace(/^/gm, "    ");
    yield index === 0 ? text : `,\n${text}`;
  }
  yield `\n  ]${frame.slice(slot + CHANGES_SLOT.length)}`;
}

export function planJson(input: Plan): string {
  return [...planJsonChunks(input)].join("");
}

export function applyReportJson(input: ApplyReport): string {
  const report = ordered(redact(input), REPORT_KEYS);
  if (!isPlainObject(report)) return stringify(report);
  report.outcomes = list(report.outcomes, (o) => ordered(o, OUTCOME_KEYS));
  if ("verification" in report) report.verification = plan(report.verification);
  return stringify(report);
}
