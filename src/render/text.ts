import type { Action, ApplyReport, Change, ChangeOutcome, Outcome, Plan } from "../core/plan.js";
import { budgetLine } from "../core/budget.js";
import { describeFailure } from "../core/failure-text.js";
import { hasChanges, OUTCOMES } from "../core/plan.js";
import { styles, type Styles } from "./ansi.js";
import { changeViews, preexistingHeading, scopeNotes } from "./changed.js";
import type { RenderOptions } from "./options.js";
import {
  ACTION_SYMBOL,
  ERROR_SYMBOL,
  NO_CHANGES,
  applyCounts,
  describeError,
  errorCount,
  groupUnchanged,
  heldRemovalLines,
  heldText,
  isShown,
  plural,
  printable,
  remainingChanges,
  summaryCounts,
  verifiedDetail,
  viewEntry,
} from "./wording.js";

const INDENT = "    ";

const ACTION_PHRASE: Record<Action, string> = {
  create: "will be created",
  update: "will be updated",
  delete: "will be deleted",
  report: "has findings",
  "no-op": "is unchanged",
};

function actionColor(action: Action, s: Styles): (text: string) => string {
  switch (action) {
    case "create":
      return s.green;
    case "update":
      return s.yellow;
    case "delete":
      return s.red;
    case "report":
      return s.cyan;
    case "no-op":
      return s.dim;
  }
}

/**
 * One change. A reason apply holds changes for is said once, at the first change it holds; the
 * others say "(held)" after their action (`said` keeps what was said).
 */
function changeBlock(change: Change, s: Styles, said: Set<string>): string[] {
  const address = s.bold(printable(change.address));
  const lines: string[] = [];
  const held = heldText(change);
  if (change.error !== undefined) {
    lines.push(`${s.red(ERROR_SYMBOL)} ${address} could not be planned`);
    lines.push(`${INDENT}${s.red("error:")} ${describeError(change.error)}`);
  } else {
    const color = actionColor(change.action, s);
    const mark = held === undefined ? "" : ` ${s.yellow("(held)")}`;
    lines.push(
      `${color(ACTION_SYMBOL[change.action])} ${address} ${ACTION_PHRASE[change.action]}${mark}`,
    );
    for (const entry of change.diff) {
      const field = viewEntry(entry, change.action);
      if (field.shape === "added")
        lines.push(`${INDENT}${s.green("+")} ${field.path}: ${field.after}`);
      else if (field.shape === "removed")
        lines.push(`${INDENT}${s.red("-")} ${field.path}: ${field.before}`);
      else lines.push(`${INDENT}${field.path}: ${field.before} → ${field.after}`);
    }
    for (const finding of change.findings ?? []) lines.push(`${INDENT}• ${printable(finding)}`);
  }
  for (const note of change.notes ?? []) {
    lines.push(s.dim(`${INDENT}note: ${printable(note)}`.trimEnd()));
  }
  if (held !== undefined && !said.has(held)) {
    said.add(held);
    lines.push(s.yellow(`${INDENT}held: ${printable(held)}`));
  }
  return lines;
}

/**
 * The changes' blocks. Unchanged resources shown only for the same notes (write-only values that
 * could not be verified) are one block that says the notes once and lists them.
 */
function blocks(changes: readonly Change[], s: Styles): string[] {
  const said = new Set<string>();
  const grouped = groupUnchanged(changes);
  return grouped.flatMap((item) => {
    if (!Array.isArray(item)) return [...changeBlock(item, s, said), ""];
    const [first] = item as [Change, ...Change[]];
    return [
      `${s.dim(ACTION_SYMBOL["no-op"])} ${plural(item.length, "resource")} ${ACTION_PHRASE["no-op"].replace("is ", "are ")}, each with the same note:`,
      ...(first.notes ?? []).map((note) => s.dim(`${INDENT}note: ${printable(note)}`)),
      ...item.map((change) => `${INDENT}${s.bold(printable(change.address))}`),
      "",
    ];
  });
}

function finish(lines: string[]): string {
  const trimmed = lines.map((line) => line.trimEnd());
  while (trimmed.at(-1) === "") trimmed.pop();
  return `${trimmed.join("\n")}\n`;
}

export function planText(plan: Plan, options: RenderOptions): string {
  const s = styles(options.color === true);
  const { own, preexisting } = changeViews(plan, plan.changes.filter(isShown));
  const lines = blocks(own, s);
  if (plan.partial !== undefined && preexisting.length > 0) {
    lines.push(
      s.bold(`${printable(preexistingHeading(plan.partial))}:`),
      "",
      ...blocks(preexisting, s),
    );
  }
  if (!hasChanges(plan) && plan.errors === 0) {
    lines.push(s.green(NO_CHANGES));
    if (plan.summary.report > 0) lines.push(`${plural(plan.summary.report, "audit report")}.`);
  } else {
    lines.push(`Plan: ${summaryCounts(plan.summary, plan.errors, plan.changes)}.`);
    if (plan.errors > 0) lines.push(s.red(errorCount(plan, options.allowPlanErrors)));
    lines.push(...heldRemovalLines(plan).map((line) => s.yellow(printable(line))));
  }
  lines.push(...scopeNotes(plan).map(printable));
  if (plan.budget !== undefined) lines.push(s.dim(budgetLine(plan.budget)));
  return finish(lines);
}

const OUTCOME_STYLE: Record<Outcome, { heading: string; symbol: (s: Styles) => string }> = {
  applied: { heading: "Applied", symbol: (s) => s.green("✓") },
  failed: { heading: "Failed", symbol: (s) => s.red("✗") },
  held: { heading: "Held", symbol: (s) => s.yellow("⏸") },
  skipped: { heading: "Skipped", symbol: (s) => s.dim("○") },
};

function outcomeLine(outcome: ChangeOutcome, s: Styles): string {
  const head = `${OUTCOME_STYLE[outcome.outcome].symbol(s)} ${s.bold(printable(outcome.address))} (${outcome.action})`;
  const why = printable(describeFailure(outcome));
  return why === "" ? head : `${head}: ${why}`;
}

export function applyReportText(report: ApplyReport, options: RenderOptions): string {
  const s = styles(options.color === true);
  const lines: string[] = [];
  for (const outcome of OUTCOMES) {
    const matching = report.outcomes.filter((item) => item.outcome === outcome);
    if (matching.length === 0) continue;
    lines.push(`${OUTCOME_STYLE[outcome].heading} (${matching.length}):`);
    lines.push(...matching.map((item) => `  ${outcomeLine(item, s)}`), "");
  }
  lines.push(`Apply: ${applyCounts(report)}.`);
  const unchecked = report.unchecked ?? [];
  // What could not be checked is said once, as a line of its own, not again as a change block.
  const uncheckedAddresses = new Set(unchecked.map((entry) => entry.address));
  const remaining = remainingChanges(report.verification).filter(
    (change) => !uncheckedAddresses.has(change.address),
  );
  if (report.verified) {
    lines.push(s.green(`Verified: ${verifiedDetail(remaining.length)}`));
  } else if (report.verification === undefined) {
    lines.push(s.red("Not verified: no re-plan was made."));
  } else if (remaining.length === 0 && unchecked.length === 0) {
    lines.push(s.red("Not verified."));
  } else {
    if (remaining.length > 0) {
      lines.push(
        s.red(`Not verified: the re-plan still shows ${plural(remaining.length, "change")}:`),
      );
      lines.push("", ...blocks(remaining, s));
    }
    if (unchecked.length > 0) {
      const what = `could not check ${plural(unchecked.length, "applied change")}:`;
      lines.push(
        s.red(remaining.length > 0 ? `The re-plan ${what}` : `Not verified: the re-plan ${what}`),
      );
      lines.push(
        ...unchecked.map(
          (entry) =>
            `  ${s.red(ERROR_SYMBOL)} ${s.bold(printable(entry.address))}: ${printable(entry.reason)}`,
        ),
      );
    }
  }
  return finish(lines);
}
