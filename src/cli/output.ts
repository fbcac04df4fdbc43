import { closeSync, openSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import type { Plan } from "../core/plan.js";
import { FORMATS, type Format, renderPlanChunks } from "../render/index.js";
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

/** Colors only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(io: CliIO): boolean {
  return io.stdout.isTTY && !io.env.NO_COLOR;
}

/** Prints the plan as the redactor lets it be shown: sensitive diff values and strings hidden. */
export function printPlan(io: CommandIO, plan: Plan, format: Format): void {
  for (const chunk of renderPlanChunks(io.redactor.plan(plan), format, {
    color: format === "text" && useColor(io),
  })) {
    io.stdout.write(chunk);
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
      for (const chunk of renderPlanChunks(io.redactor.plan(plan), "json")) {
        writeSync(file, io.redactor.redact(chunk));
      }
    } finally {
      closeSync(file);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`${command}: cannot write the plan to ${path}: ${reason}`);
  }
}
