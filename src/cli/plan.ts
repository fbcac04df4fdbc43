import { hasChanges, type Plan } from "../core/plan.js";
import { configHint, looksLikeConfig, parseFlags } from "./args.js";
import { type Command, CliError } from "./io.js";
import { archivedCause } from "./lifecycle-flags.js";
import {
  colorFlag,
  colorHelp,
  maxLengthFlag,
  maxLengthHelp,
  maxLengthOption,
  parseFormat,
  printPlan,
  savePlan,
  useColor,
} from "./output.js";
import { parseReads, readsFlag, readsHelp } from "./reads.js";
import { raisedLimit, removalLimitFlags, removalLimitHelp } from "./removal-limit.js";
import { loadStateAt } from "./revision.js";
import { rotationFlags, rotationHelp, rotationOption } from "./rotation.js";
import { configPaths, connectionFlags, connectionHelp, loadState, openSession } from "./session.js";
import {
  targetOption,
  mergePlanFiles,
  planChanges,
  planPart,
  shardClientOptions,
  shardOption,
} from "./sharding.js";

export const flags = {
  ...connectionFlags,
  ...colorFlag,
  ...readsFlag,
  ...maxLengthFlag,
  format: { type: "string" },
  out: { type: "string" },
  shard: { type: "string" },
  "shard-share": { type: "string" },
  "changed-from": { type: "string" },
  merge: { type: "boolean" },
  ...rotationFlags,
  "fail-on-archived": { type: "boolean" },
  target: { type: "string", multiple: true },
  ...removalLimitFlags,
  help: { type: "boolean", short: "h" },
} as const;

export const help = `usage: forgeplan plan [-c FILE|DIR]... [--format text|markdown|json] [--out PLAN.json] [--shard K/N | --changed-from REF]
       forgeplan plan --merge SHARD.json... [--format text|markdown|json] [--out PLAN.json]

Reads the live state of everything the desired state names and prints the plan.
${connectionHelp()}  --format FORMAT          text (default; coloured on a terminal), markdown (PR comment), json
${maxLengthHelp}${colorHelp}${readsHelp}  --out PLAN.json          also save the plan as JSON (apply it later with 'forgeplan apply PLAN.json')
  --shard K/N              plan only shard K of N (by repository, project, group), at 1/N of the
                           token's limits (rate budget, points, CPU time, concurrency)
  --shard-share F          this shard's share of the token's limits instead of 1/N (0.5 or 1/2)
  --changed-from REF       plan only what the configuration changes since the git revision REF (a
                           pull request's base): the resources whose resolved desired state differs,
                           with what the service already differed in shown apart; the plan says how
                           many resources it left out, and a saved one is marked partial
  --target ADDRESS         plan only what this address matches (repeatable; globs: github/acme/api/*,
                           */branch_protection/main); only what the targets reach is read
${rotationHelp}${removalLimitHelp}  --merge SHARD.json...    combine the plans of all N shards (saved with --out) into one; reads nothing live
  --fail-on-archived       exit 1 when a change will not be applied because its repository is archived
  -h, --help               this text
Exit 0: no changes (audit reports alone don't count); 2: changes; 1: errors.
`;

/**
 * `forgeplan plan`: exit 0 when live state matches (audit reports alone don't count), 2 when there
 * are creates, updates or deletes, 1 when anything could not be planned.
 */
export const plan: Command = async (argv, io) => {
  const { values, positionals } = parseFlags("plan", argv, flags, { positionals: true });
  if (values.help) {
    io.stdout.write(help);
    return 0;
  }
  const format = parseFormat("plan", values.format);
  const markdownOptions = maxLengthOption("plan", format, values["max-length"]);
  const stray = values.merge ? undefined : positionals[0];
  if (stray !== undefined) {
    throw new CliError(
      looksLikeConfig(stray)
        ? `plan: unexpected argument '${stray}': ${configHint(stray)}`
        : `plan: unexpected argument '${stray}' (plan files go after --merge)`,
    );
  }
  const changedFrom = values["changed-from"];
  if (values.merge && (values.shard !== undefined || values.config !== undefined)) {
    throw new CliError("plan: --merge combines saved plans; it takes no -c or --shard");
  }
  if (changedFrom !== undefined && (values.merge || values.shard !== undefined)) {
    throw new CliError(
      "plan: --changed-from plans one change whole; it takes no --shard or --merge",
    );
  }
  if (values.target !== undefined && (changedFrom !== undefined || values.merge)) {
    throw new CliError(
      "plan: --target narrows a plan of live state; it takes no --changed-from or --merge",
    );
  }
  const targets = targetOption("plan", values.target);
  if (changedFrom?.trim() === "" || changedFrom?.startsWith("-")) {
    throw new CliError(`plan: --changed-from expects a git revision, got '${changedFrom}'`);
  }
  const shard = shardOption("plan", values.shard);
  const reads = parseReads("plan", values.reads);
  const removalLimit = raisedLimit("plan", values);
  let result: Plan;
  if (values.merge) {
    result = mergePlanFiles("plan", io, positionals);
  } else {
    const state = loadState("plan", values, io);
    // Read before connecting: a revision that cannot be read stops the plan before any request.
    const base =
      changedFrom === undefined
        ? undefined
        : loadStateAt("plan", changedFrom, configPaths(values), io);
    const session = await openSession(
      "plan",
      values,
      io,
      state,
      [],
      shardClientOptions("plan", shard, values["shard-share"]),
    );
    const rotation = rotationOption("plan", values);
    try {
      result =
        changedFrom === undefined
          ? await planPart("plan", state, session.readers, shard, {
              ...rotation,
              reads,
              ...(targets ? { targets } : {}),
              ...(removalLimit ? { removalLimit } : {}),
            })
          : await planChanges("plan", changedFrom, base, state, session.readers, {
              ...rotation,
              reads,
              ...(removalLimit ? { removalLimit } : {}),
            });
    } finally {
      await session.close();
    }
  }
  printPlan(io, result, format, useColor(io, values["no-color"]), markdownOptions);
  if (values.out) {
    // A saved plan records the configuration it was made from, so `apply PLAN.json` can re-check it.
    savePlan(
      "plan",
      io,
      values.merge ? result : { ...result, config: configPaths(values) },
      values.out,
    );
  }
  if (result.errors > 0) return 1;
  const archived = values["fail-on-archived"] === true ? archivedCause(result) : undefined;
  if (archived !== undefined) {
    io.stderr.write(`forgeplan: plan: ${archived}\n`);
    return 1;
  }
  return hasChanges(result) ? 2 : 0;
};
