import { formatConfigError } from "../config/index.js";
import { describeCounts, loadDesiredState, printState } from "../engine/desired.js";
import { describeMatches, entryMatches } from "../engine/matches.js";
import { parseFlags } from "./args.js";
import type { Command } from "./io.js";
import { connectionFlags, openSession } from "./session.js";

const help = `usage: forgeplan validate [-c FILE|DIR]... [--print] [--matches [--sandbox | --sandbox-url URL]]

Loads and checks the desired state; no network, no token needed (but for --matches).
  -c, --config FILE|DIR  a config file, or a directory of *.yaml/*.yml files (repeatable;
                         default forgeplan.yaml); several are merged in the order given
  --print                print the merged desired state, each value with the file:line it came from
  --matches              also read the service (the targets' tokens, or a sandbox) and print which
                         repositories each repository entry selects now (globs, custom properties)
  --sandbox, --sandbox-url URL   read a sandbox for --matches (either implies it)
Exit 0 when valid, 1 when not, with one line per problem on stderr: file:line:col: key.path: message
`;

export const validate: Command = async (argv, io) => {
  const { values } = parseFlags("validate", argv, {
    config: connectionFlags.config,
    sandbox: connectionFlags.sandbox,
    "sandbox-url": connectionFlags["sandbox-url"],
    print: { type: "boolean" },
    matches: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    io.stdout.write(help);
    return 0;
  }
  const result = loadDesiredState(values.config ?? [], {
    cwd: io.cwd,
    env: io.env,
    redactor: io.redactor,
  });
  if (!result.ok) {
    for (const error of result.errors) io.stderr.write(`${formatConfigError(error)}\n`);
    return 1;
  }
  const { state } = result;
  io.stdout.write(
    values.print
      ? printState(state)
      : `valid: ${state.files.join(", ")} (${describeCounts(state)})\n`,
  );
  // Given a sandbox to read, what the entries select there is shown too.
  if (values.matches || values.sandbox || values["sandbox-url"] !== undefined) {
    const session = await openSession("validate", values, io, state);
    try {
      io.stdout.write(`\n${describeMatches(await entryMatches(state, session.readers))}`);
    } finally {
      await session.close();
    }
  }
  return 0;
};
