import { closeSync, openSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { thousands } from "../core/thousands.js";
import type { ApplyReport, Plan } from "../core/plan.js";
import {
  applyJsonChunks,
  FORMATS,
  type Format,
  renderPlanChunks,
  type RenderOptions,
} from "../render/index.js";
import { GITHUB_BODY_LIMIT } from "../report/sticky-comment.js";
import { CliError, type CliIO, type CommandIO } from "./io.js";

export function parseFormat(command: string, value: string | undefined): Format {
  const format = value ?? "text";
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new CliError(
      `${command}: --format must be one of ${FORMATS.join(", ")}, got '${format}'`,
    );
  }
  return format as Format;
}

/** The flag of the commands that print a plan as markdown: the most characters it may have. */
export const maxLengthFlag = { "max-length": { type: "string" } } as const;

export const maxLengthHelp =
  `  --max-length N           markdown: at most N characters (default ${thousands(GITHUB_BODY_LIMIT)}, GitHub's comment\n` +
  "                           limit; 0 for no limit): the rest is cut between sections and counted\n";

/**
 * How long a markdown plan may be: GitHub's comment limit unless told (0: no limit), as the Action
 * cuts its comment, so a plan pasted into a comment fits; only markdown is cut.
 */
export function maxLengthOption(
  command: string,
  format: Format,
  value: string | undefined,
): RenderOptions {
  if (value !== undefined && format !== "markdown") {
    throw new CliError(`${command}: --max-length applies to --format markdown`);
  }
  if (format !== "markdown") return {};
  const limit = value === undefined ? GITHUB_BODY_LIMIT : Number(value);
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new CliError(`${command}: --max-length expects a number of characters, got '${value}'`);
  }
  return limit === 0 ? {} : { maxLength: limit, cutHint: `plan with --max-length 0 for all of it` };
}

/** The flag of the commands that print a plan in colour on a terminal. */
export const colorFlag = { "no-color": { type: "boolean" } } as const;

export const colorHelp =
  "  --no-color               no colour, even on a terminal (also NO_COLOR=1 or TERM=dumb;\n" +
  "                           FORCE_COLOR=1 colours what is not a terminal)\n";

/**
 * Whether text output is coloured: never with --no-color; as FORCE_COLOR says when it is set ("0"
 * and "false" turn colour off, anything else on), which wins over NO_COLOR and TERM=dumb as in
 * node's own tty.getColorDepth(); never when NO_COLOR is set and not empty (https://no-color.org)
 * or on a dumb terminal (TERM=dumb); otherwise only on a terminal.
 */
export function useColor(io: CliIO, noColorFlag: boolean | undefined): boolean {
  if (noColorFlag === true) return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  if (io.env.NO_COLOR) return false;
  if (io.env.TERM === "dumb") return false;
  return io.stdout.isTTY;
}

/** Prints the plan as the redactor lets it be shown: sensitive diff values and strings hidden. */
export function printPlan(
  io: CommandIO,
  plan: Plan,
  format: Format,
  color: boolean,
  options: RenderOptions = {},
): void {
  const chunks = renderPlanChunks(io.redactor.plan(plan), format, {
    ...options,
    color: format === "text" && color,
  });
  for (const piece of batched(chunks)) io.stdout.write(piece);
}

/** About what one write to a pipe or a file takes at once. */
const WRITE_BYTES = 64 * 1024;

/**
 * Chunks joined into pieces of about WRITE_BYTES. A JSON plan comes one change at a time, and
 * writing each was one system call per change: about 4,000 for a plan of 1,000 repositories
 * (bench/plan-1k.js), a few hundredths of a second. A piece still holds only a few changes.
 */
function* batched(chunks: Iterable<string>): Generator<string> {
  let held: string[] = [];
  let length = 0;
  for (const chunk of chunks) {
    held.push(chunk);
    length += chunk.length;
    if (length < WRITE_BYTES) continue;
    yield held.join("");
    held = [];
    length = 0;
  }
  if (held.length > 0) yield held.join("");
}

/** `apply --format json`: the plan applied and the report, one document, redacted like the plan. */
export function printApplyJson(io: CommandIO, plan: Plan, report: ApplyReport): void {
  for (const piece of batched(applyJsonChunks(io.redactor.plan(plan), report))) {
    io.stdout.write(piece);
  }
}

/**
 * Saves the plan as the contract's JSON, the file `apply PLAN.json` applies exactly. It is output
 * like any other: sensitive values read "(sensitive)" (apply compares it with a fresh plan redacted
 * the same way, and sends the fresh plan's values).
 */
export function savePlan(command: string, io: CommandIO, plan: Plan, path: string): void {
  const target = resolve(io.cwd, path);
  try {
    const file = openSync(target, "w");
    try {
      for (const piece of batched(renderPlanChunks(io.redactor.plan(plan), "json"))) {
        writeSync(file, io.redactor.redact(piece));
      }
    } finally {
      closeSync(file);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`${command}: cannot write the plan to ${path}: ${reason}`);
  }
}
