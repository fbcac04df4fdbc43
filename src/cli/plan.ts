import { hasChanges } from "../core/plan.js";
import { buildPlan } from "../engine/plan.js";
import { parseFlags } from "./args.js";
import type { Command } from "./io.js";
import { parseFormat, printPlan, savePlan } from "./output.js";
import { configPaths, connectionFlags, loadState, openSession } from "./session.js";

/**
 * `forgeplan plan`: exit 0 when live state matches (audit reports alone don't count), 2 when there
 * are creates, updates or deletes, 1 when anything could not be planned.
 */
export const plan: Command = async (argv, io) => {
  const { values } = parseFlags("plan", argv, {
    ...connectionFlags,
    format: { type: "string" },
    out: { type: "string" },
  });
  const format = parseFormat("plan", values.format);
  const state = loadState("plan", values, io);
  const session = await openSession("plan", values, io, state);
  try {
    const result = await buildPlan({ state, readers: session.readers, now: Date.now() });
    printPlan(io, result, format);
    if (values.out) savePlan("plan", io, { ...result, config: configPaths(values) }, values.out);
    if (result.errors > 0) return 1;
    return hasChanges(result) ? 2 : 0;
  } finally {
    await session.close();
  }
};
