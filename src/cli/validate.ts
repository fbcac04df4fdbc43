import { formatConfigError } from "../config/index.js";
import { describeCounts, loadDesiredState, printState } from "../engine/desired.js";
import { parseFlags } from "./args.js";
import type { Command } from "./io.js";

export const flags = {
  config: { type: "string", short: "c", multiple: true },
  print: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export const help = `usage: forgeplan validate [-c FILE|DIR]... [--print]

Loads and checks the desired state; no network, no token needed.
  -c, --config FILE|DIR    a config file, or a directory of *.yaml/*.yml files (repeatable;
                           default forgeplan.yaml; - reads stdin); several are merged in the order given
  --print                  print the merged desired state, each value with the file:line it came from
  -h, --help               this text
Exit 0 when valid, 1 when not, with one line per problem on stderr: file:line:col: key.path: message
`;

export const validate: Command = async (argv, io) => {
  const { values } = parseFlags("validate", argv, flags);
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
  if (values.print) {
    io.stdout.write(printState(state));
    return 0;
  }
  io.stdout.write(`valid: ${state.files.join(", ")} (${describeCounts(state)})\n`);
  return 0;
};
