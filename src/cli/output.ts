import { closeSync, openSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import type { Plan } from "../core/plan.js";
import { FORMATS, type Format, renderPlanChunks } from "../render/index.js";
import { CliError, type CliIO } from "./io.js";

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

export function printPlan(io: CliIO, plan: Plan, format: Format): void {
  for (const chunk of renderPlanChunks(plan, format, {
    color: format === "text" && useColor(io),
  })) {
    io.stdout.write(chunk);
  }
}

/** Saves the plan as the contract's JSON, the file `apply PLAN.json` applies exactly. */
export function savePlan(command: string, io: CliIO, plan: Plan, path: string): void {
  const target = resolve(io.cwd, path);
  try {
    const file = openSync(target, "w");
    try {
      for (const chunk of renderPlanChunks(plan, "json")) writeSync(file, chunk);
    } finally {
      closeSync(file);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`${command}: cannot write the plan to ${path}: ${reason}`);
  }
}
