import { hasChanges } from "../core/plan.js";
import { buildPlan } from "../engine/plan.js";
import { parseFlags } from "./args.js";
import type { Command } from "./io.js";
import { parseFormat, printPlan, savePlan } from "./output.js";
import { configPaths, connectionFlags, loadState, openSession } from "./session.js";

const help = `usage: forgeplan plan [-c FILE|DIR]... [--format text|markdown|json] [--out PLAN.json]

Reads the live state of everything the desired state names and prints the plan.
  -c, --config FILE|DIR   desired state (repeatable; default forgeplan.yaml)
  --format FORMAT         text (default; colored on a terminal), markdown (PR comment), json
  --out PLAN.json         also save the plan as JSON (apply it later with 'forgeplan apply PLAN.json')
  --sandbox               start an embedded sandbox with the demo world and plan against it
  --sandbox-url URL       plan against a running sandbox (forgeplan sandbox)
  --concurrency N         concurrent reads (default 8, at most 100)
  --write-interval MS     spacing between mutating requests (default 1000; 0 against a sandbox)
Exit 0: no changes (audit reports alone don't count); 2: changes; 1: errors.
`;

/**
 * `forgeplan plan`: exit 0 when live state matches (audit reports alone don't count), 2 when there
 * are creates, updates or deletes, 1 when anything could not be planned.
 */
export const plan: Command = async (argv, io) => {
  const { values } = parseFlags("plan", argv, {
    ...connectionFlags,
    format: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    io.stdout.write(help);
    return 0;
  }
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
