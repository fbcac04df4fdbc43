import type { ApplyReport, ChangeOutcome, Plan } from "../core/plan.js";
import { hasChanges } from "../core/plan.js";
import { applyPlan } from "../engine/apply.js";
import { buildPlan } from "../engine/plan.js";
import { renderApplyReport } from "../render/index.js";
import { parseFlags } from "./args.js";
import { type Command, CliError, type CliIO } from "./io.js";
import { parseFormat, printPlan, useColor } from "./output.js";
import { connectionFlags, loadState, openSession } from "./session.js";

/**
 * Verification: after apply, a fresh plan must show every applied change as no-op. Anything else
 * (the service kept something else, or something changed meanwhile) is reported and exits 1.
 */
export function verificationOf(outcomes: readonly ChangeOutcome[], replan: Plan): boolean {
  const applied = new Set(
    outcomes.filter((outcome) => outcome.outcome === "applied").map((outcome) => outcome.address),
  );
  return replan.changes.every(
    (change) => !applied.has(change.address) || (change.action === "no-op" && !change.error),
  );
}

async function confirm(io: CliIO, plan: Plan, autoApprove: boolean): Promise<void> {
  if (autoApprove) return;
  if (!io.stdinIsTTY || !io.prompt) {
    throw new CliError(
      "apply: refusing to apply without confirmation: stdin is not a terminal (pass --auto-approve)",
    );
  }
  const { create, update, delete: deletes } = plan.summary;
  const answer = await io.prompt(
    `Apply ${create} create(s), ${update} update(s), ${deletes} delete(s)? Only 'yes' is accepted: `,
  );
  if (answer.trim() !== "yes") throw new CliError("apply: cancelled, nothing was applied");
}

/** `forgeplan apply`: plan, confirm, apply, then re-read and verify; exit 0 only when verified. */
export const apply: Command = async (argv, io) => {
  const { values, positionals } = parseFlags(
    "apply",
    argv,
    {
      ...connectionFlags,
      format: { type: "string" },
      "auto-approve": { type: "boolean" },
      "allow-delete": { type: "boolean" },
    },
    { positionals: true },
  );
  if (positionals.length > 0) {
    throw new CliError(
      `apply: unexpected argument '${positionals[0]}' (applying a saved plan file is not supported yet; use -c FILE)`,
    );
  }
  const format = parseFormat("apply", values.format);
  const state = loadState("apply", values, io);
  const session = await openSession("apply", values, io, state);
  try {
    const plan = await buildPlan({ state, readers: session.readers, now: Date.now() });
    printPlan(io, plan, format);
    if (!hasChanges(plan)) {
      if (format === "text") io.stdout.write("Nothing to apply.\n");
      return plan.errors > 0 ? 1 : 0;
    }
    await confirm(io, plan, values["auto-approve"] === true);
    const outcomes = await applyPlan({
      plan,
      clients: session.clients,
      allowDelete: values["allow-delete"] === true,
      secrets: session.secrets,
      env: io.env,
    });
    const verification = await buildPlan({ state, readers: session.readers, now: Date.now() });
    const report: ApplyReport = {
      outcomes,
      verification,
      verified: verificationOf(outcomes, verification),
    };
    io.stdout.write(
      renderApplyReport(report, format, { color: format === "text" && useColor(io) }),
    );
    const failed = outcomes.some((outcome) => outcome.outcome === "failed");
    return failed || !report.verified || plan.errors > 0 ? 1 : 0;
  } finally {
    await session.close();
  }
};
