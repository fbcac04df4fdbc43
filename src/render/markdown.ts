import { budgetLine } from "../core/budget.js";
import { thousands } from "../core/thousands.js";
import type {
  Action,
  ApplyReport,
  Change,
  ChangeOutcome,
  PartialPlan,
  Plan,
} from "../core/plan.js";
import { describeFailure } from "../core/failure-text.js";
import { hasChanges, OUTCOMES } from "../core/plan.js";
import { changeViews, preexistingHeading, scopeNotes } from "./changed.js";
import { code, escapeHtml, escapeInline, linkTarget } from "./escape.js";
import { fitParts } from "./fit.js";
import type { RenderOptions } from "./options.js";
import {
  ACTION_SYMBOL,
  ERROR_SYMBOL,
  NO_CHANGES,
  errorCount,
  heldRemovalLines,
  heldText,
  isShown,
  plural,
  remainingChanges,
  verifiedDetail,
  viewEntry,
} from "./wording.js";

/** Finds forgeplan's own pull-request comment so it is edited in place rather than posted again. */
export const COMMENT_MARKER = "<!-- forgeplan -->";

function document(parts: readonly string[]): string {
  return `${parts.join("\n\n")}\n`;
}

function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align = "---",
): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => align)), ...rows.map(line)].join("\n");
}

function heading(options: RenderOptions, fallback: string, verb: string): string[] {
  const parts = [`### ${escapeInline(options.title ?? fallback)}`];
  if (options.commit !== undefined) parts.push(`${verb} at commit ${code(options.commit)}.`);
  return parts;
}

function cutNote(hidden: number, what: string, subject: string, options: RenderOptions): string {
  const more = plural(hidden, `more ${what}`, `more ${what}s`);
  if (options.cutHint !== undefined) {
    const limit = thousands(options.maxLength ?? 0);
    return `_… ${more} not shown: the ${subject} is longer than ${limit} characters; ${escapeInline(options.cutHint)}._`;
  }
  const where =
    options.detailsUrl === undefined
      ? "the job summary"
      : `[the full ${subject}](${linkTarget(options.detailsUrl)})`;
  return `_… ${more} not shown: the ${subject} is longer than GitHub's comment limit; see ${where}._`;
}

/** Which sections come first: those with errors, then those with deletes, then the rest as planned. */
function urgency(changes: readonly Change[]): number {
  if (changes.some((change) => change.error !== undefined)) return 0;
  if (changes.some((change) => change.action === "delete")) return 1;
  return 2;
}

function groupByScope(changes: readonly Change[]): Map<string, Change[]> {
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    const key = `${change.target}/${change.scope}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [change]);
    else group.push(change);
  }
  return groups;
}

const SECTION_COUNTS: readonly [Action, string][] = [
  ["delete", "to delete"],
  ["create", "to create"],
  ["update", "to update"],
  ["report", "to report"],
];

function sectionSummary(scope: string, changes: readonly Change[]): string {
  const planned = changes.filter((change) => change.error === undefined);
  const errors = changes.length - planned.length;
  const counts = [
    ...(errors > 0 ? [plural(errors, "error")] : []),
    ...SECTION_COUNTS.map(([action, words]) => {
      const count = planned.filter((change) => change.action === action).length;
      return count > 0 ? `${count} ${words}` : "";
    }).filter((text) => text !== ""),
  ];
  const mark = ["❌ ", "⚠️ "][urgency(changes)] ?? "";
  return `${mark}<b>${escapeHtml(scope)}</b>: ${counts.join(", ")}`;
}

function failureText(failure: { request?: string; status?: number; message?: string }): string {
  return describeFailure(failure, { request: code, message: escapeInline });
}

/** One change; a reason apply holds changes for is said at the first change it holds (`said`). */
function changeEntry(change: Change, said: Set<string> = new Set()): string {
  const parts: string[] = [];
  const held = heldText(change);
  if (change.error !== undefined) {
    parts.push(`**${ERROR_SYMBOL} could not be planned** ${code(change.address)}`);
    parts.push(`error: ${failureText(change.error)}`);
  } else {
    parts.push(
      `**${escapeInline(ACTION_SYMBOL[change.action])} ${change.action}** ${code(change.address)}${held === undefined ? "" : " ⏸️ held"}`,
    );
    if (change.diff.length > 0) {
      const rows = change.diff.map((entry) => {
        const field = viewEntry(entry, change.action);
        return [code(field.path), code(field.before), code(field.after)];
      });
      parts.push(table(["field", "before", "after"], rows));
    }
    const findings = change.findings ?? [];
    if (findings.length > 0) parts.push(findings.map((f) => `- ${escapeInline(f)}`).join("\n"));
  }
  const notes = change.notes ?? [];
  const first = held !== undefined && !said.has(held);
  if (held !== undefined) said.add(held);
  const lines = [
    ...notes.map((note) => `- _note:_ ${escapeInline(note)}`),
    ...(first ? [`- ⏸️ _held:_ ${escapeInline(held)}`] : []),
  ];
  if (lines.length > 0) parts.push(lines.join("\n"));
  return parts.join("\n\n");
}

function section(scope: string, changes: readonly Change[], said: Set<string>): string {
  const open = urgency(changes) < 2 ? " open" : "";
  return [
    `<details${open}><summary>${sectionSummary(scope, changes)}</summary>`,
    ...changes.map((change) => changeEntry(change, said)),
    "</details>",
  ].join("\n\n");
}

const PLAN_COLUMNS = ["create", "update", "delete", "report", "no-op", "errors"];

/** The differences the service already had, in one closed section after the change's own. */
function preexistingSection(partial: PartialPlan, changes: readonly Change[]): string {
  return [
    `<details><summary>ℹ️ ${escapeHtml(preexistingHeading(partial))}: ${plural(changes.length, "resource")}</summary>`,
    ...changes.map((change) => changeEntry(change)),
    "</details>",
  ].join("\n\n");
}

export function planMarkdown(plan: Plan, options: RenderOptions): string {
  const { own, preexisting } = changeViews(plan, plan.changes.filter(isShown));
  const said = new Set<string>();
  const sections = [...groupByScope(own)]
    .map(([scope, changes], order) => ({ scope, changes, order }))
    .sort((a, b) => urgency(a.changes) - urgency(b.changes) || a.order - b.order)
    .map(({ scope, changes }) => section(scope, changes, said));
  if (plan.partial !== undefined && preexisting.length > 0) {
    sections.push(preexistingSection(plan.partial, preexisting));
  }
  const { summary } = plan;
  const head = [
    options.marker ?? COMMENT_MARKER,
    ...heading(options, "forgeplan plan", "Planned"),
    table(
      PLAN_COLUMNS,
      [
        [
          summary.create,
          summary.update,
          summary.delete,
          summary.report,
          summary["no-op"],
          plan.errors,
        ].map(String),
      ],
      "---:",
    ),
  ];
  if (!hasChanges(plan) && plan.errors === 0) head.push(`**${NO_CHANGES}**`);
  if (plan.errors > 0) head.push(`❗ ${escapeInline(errorCount(plan, options.allowPlanErrors))}`);
  const held = heldRemovalLines(plan);
  if (held.length > 0) head.push(held.map((line) => `⏸️ ${escapeInline(line)}`).join("\n\n"));
  const notes = scopeNotes(plan);
  if (notes.length > 0) head.push(notes.map((line) => `_${escapeInline(line)}_`).join("\n\n"));
  if (plan.budget !== undefined) head.push(`_${escapeInline(budgetLine(plan.budget))}_`);
  return fitParts(
    sections.length,
    (kept) =>
      document([
        ...head,
        ...sections.slice(0, kept),
        ...(kept < sections.length
          ? [cutNote(sections.length - kept, "section", "plan", options)]
          : []),
      ]),
    options.maxLength,
  );
}

const OUTCOME_MARK: Record<ChangeOutcome["outcome"], string> = {
  applied: "✅ applied",
  failed: "❌ failed",
  held: "⏸️ held",
  skipped: "⏭️ skipped",
};

function verification(report: ApplyReport): string {
  const unchecked = report.unchecked ?? [];
  // What could not be checked is said once, in its own list, not again among the changes.
  const uncheckedAddresses = new Set(unchecked.map((entry) => entry.address));
  const remaining = remainingChanges(report.verification).filter(
    (change) => !uncheckedAddresses.has(change.address),
  );
  if (report.verified) return `**Verified:** ${verifiedDetail(remaining.length)}`;
  if (report.verification === undefined) return "**Not verified:** no re-plan was made.";
  if (remaining.length === 0 && unchecked.length === 0) return "**Not verified.**";
  const parts: string[] = [];
  if (remaining.length > 0) {
    const lines = remaining.map((change) => {
      if (change.error !== undefined)
        return `- ${code(change.address)}: ${failureText(change.error)}`;
      const paths = change.diff.map((entry) => code(entry.path)).join(", ");
      return `- ${code(change.address)} (${change.action})${paths === "" ? "" : `: ${paths}`}`;
    });
    parts.push(
      `**Not verified:** the re-plan still shows ${plural(remaining.length, "change")}:\n\n${lines.join("\n")}`,
    );
  }
  if (unchecked.length > 0) {
    const what = `could not check ${plural(unchecked.length, "applied change")}:`;
    const lines = unchecked.map(
      (entry) => `- ${code(entry.address)}: ${escapeInline(entry.reason)}`,
    );
    parts.push(
      `${remaining.length > 0 ? `The re-plan ${what}` : `**Not verified:** the re-plan ${what}`}\n\n${lines.join("\n")}`,
    );
  }
  return parts.join("\n\n");
}

export function applyReportMarkdown(report: ApplyReport, options: RenderOptions): string {
  // Problems first, so a cut to fit the comment limit drops the applied rows before anything else.
  const rank = (outcome: ChangeOutcome) =>
    ["failed", "held", "skipped", "applied"].indexOf(outcome.outcome);
  const outcomes = report.outcomes
    .map((outcome, order) => ({ outcome, order }))
    .sort((a, b) => rank(a.outcome) - rank(b.outcome) || a.order - b.order)
    .map(({ outcome }) => [
      OUTCOME_MARK[outcome.outcome],
      code(outcome.address),
      outcome.action,
      outcome.request === undefined ? "" : code(outcome.request),
      outcome.status === undefined ? "" : String(outcome.status),
      escapeInline(outcome.message ?? ""),
    ]);
  const counts = OUTCOMES.map(
    (outcome) => `${report.outcomes.filter((item) => item.outcome === outcome).length}`,
  );
  const head = [
    options.marker ?? COMMENT_MARKER,
    ...heading(options, "forgeplan apply", "Applied"),
    table(OUTCOMES, [counts], "---:"),
    verification(report),
  ];
  return fitParts(
    outcomes.length,
    (kept) =>
      document([
        ...head,
        ...(kept > 0
          ? [
              table(
                ["outcome", "change", "action", "request", "status", "message"],
                outcomes.slice(0, kept),
              ),
            ]
          : []),
        ...(kept < outcomes.length
          ? [cutNote(outcomes.length - kept, "outcome", "report", options)]
          : []),
      ]),
    options.maxLength,
  );
}
