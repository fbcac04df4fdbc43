import { formatConfigError } from "../config/index.js";
import { describeCounts, loadDesiredState, printState } from "../engine/desired.js";
import { parseFlags } from "./args.js";
import type { DesiredState } from "../config/model.js";
import type { Command, CommandIO } from "./io.js";

export const flags = {
  config: { type: "string", short: "c", multiple: true },
  print: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export const help = `usage: forgeplan validate [-c FILE|DIR]... [--print]

Loads and checks the desired state; no network, no token needed. Environment variables need not be
set: a value that refers to one that is not is checked once it is, by plan. Then lists the variables
a plan will need, saying which are not set.
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
  // The shape only: a plan needs the variables set, validate does not (it lists them instead).
  const result = loadDesiredState(values.config ?? [], {
    cwd: io.cwd,
    env: io.env,
    redactor: io.redactor,
    allowUnset: true,
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
  const needed = neededVariables(state, result.variables, io.env);
  if (needed !== "") io.stdout.write(`a plan needs: ${needed}\n`);
  return 0;
};

/**
 * The environment variables a plan of this state reads, each said to be set or not (never its
 * value): those the files refer to, then the tokens of the targets the entries use.
 */
function neededVariables(
  state: DesiredState,
  referenced: readonly string[],
  env: CommandIO["env"],
): string {
  const used = new Set([
    ...state.repositories.map((entry) => entry.target),
    ...state.sections.map((entry) => entry.target),
  ]);
  const notes = new Map<string, string[]>(referenced.map((name) => [name, []]));
  for (const target of state.targets) {
    if (!used.has(target.name) || notes.has(target.tokenEnv)) continue;
    notes.set(target.tokenEnv, [`token of target ${target.name}`]);
  }
  return [...notes]
    .map(([name, said]) => {
      const all = [...said, ...(env[name] === undefined ? ["not set"] : [])];
      return all.length === 0 ? name : `${name} (${all.join(", ")})`;
    })
    .join(", ");
}
