import { formatConfigError } from "../config/index.js";
import { describeCounts, loadDesiredState, printState } from "../engine/desired.js";
import { describeMatches, entryMatches } from "../engine/matches.js";
import { parseFlags } from "./args.js";
import type { DesiredState } from "../config/model.js";
import type { Command, CommandIO } from "./io.js";
import { connectionFlags, openSession } from "./session.js";
import { envValue } from "../config/env.js";

export const flags = {
  config: connectionFlags.config,
  sandbox: connectionFlags.sandbox,
  "sandbox-url": connectionFlags["sandbox-url"],
  print: { type: "boolean" },
  matches: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export const help = `usage: forgeplan validate [-c FILE|DIR]... [--print] [--matches [--sandbox | --sandbox-url URL]]

Loads and checks the desired state; no network, no token needed (but for --matches). Environment
variables need not be set: a value that refers to one that is not is checked once it is, by plan.
Then lists the variables a plan will need, saying which are not set (given a sandbox, a plan
against it, which needs no target's token).
  -c, --config FILE|DIR    a config file, or a directory of *.yaml/*.yml files (repeatable;
                           default forgeplan.yaml; - reads stdin); several are merged in the order given
  --print                  print the merged desired state, each value with the file:line it came from
  --matches                also read the service (the targets' tokens, or a sandbox) and print which
                           repositories each repository entry selects now (globs, custom properties);
                           the variables the entries use must then be set
  --sandbox, --sandbox-url URL   read a sandbox for --matches (either implies it)
  -h, --help               this text
Exit 0 when valid, 1 when not, with one line per problem on stderr: file:line:col: key.path: message
(past 101 problems, the first 100 and one line counting them all)
`;

export const validate: Command = async (argv, io) => {
  const { values } = parseFlags("validate", argv, flags);
  if (values.help) {
    io.stdout.write(help);
    return 0;
  }
  // Given a sandbox to read, what the entries select there is shown too.
  const matching = values.matches || values.sandbox || values["sandbox-url"] !== undefined;
  // The shape only: a plan needs the variables set, validate does not (it lists them instead);
  // reading the service for --matches needs the values the entries are selected with.
  const result = loadDesiredState(values.config ?? [], {
    cwd: io.cwd,
    env: io.env,
    redactor: io.redactor,
    allowUnset: !matching,
  });
  if (!result.ok) {
    for (const error of result.errors) io.stderr.write(`${formatConfigError(error)}\n`);
    return 1;
  }
  const { state } = result;
  if (values.print) io.stdout.write(printState(state));
  else {
    io.stdout.write(`valid: ${state.files.join(", ")} (${describeCounts(state)})\n`);
    const againstSandbox = values.sandbox === true || values["sandbox-url"] !== undefined;
    const needed = neededVariables(state, result.variables, io.env, againstSandbox);
    const plan = againstSandbox ? "a plan against the sandbox" : "a plan";
    if (needed !== "") io.stdout.write(`${plan} needs: ${needed}\n`);
  }
  if (matching) {
    const session = await openSession("validate", values, io, state);
    try {
      io.stdout.write(`\n${describeMatches(await entryMatches(state, session.readers))}`);
    } finally {
      await session.close();
    }
  }
  return 0;
};

/**
 * The environment variables a plan of this state reads, each said to be set or not (never its
 * value): those the files refer to, then the tokens (or App keys) of the targets the entries use.
 * Against a sandbox a target signs in with the sandbox's admin token, so its token is not read; a
 * GitHub App target still signs in as the App the sandbox's seed declares, with its key.
 */
function neededVariables(
  state: DesiredState,
  referenced: readonly string[],
  env: CommandIO["env"],
  againstSandbox: boolean,
): string {
  const used = new Set([
    ...state.repositories.map((entry) => entry.target),
    ...state.sections.map((entry) => entry.target),
  ]);
  const notes = new Map<string, string[]>(referenced.map((name) => [name, []]));
  for (const target of state.targets) {
    if (!used.has(target.name)) continue;
    // A target signed in as a GitHub App needs its private key (unless read from a file).
    const key = target.app?.privateKey;
    if (key !== undefined && !("env" in key)) continue;
    if (key === undefined && againstSandbox) continue;
    const name = key !== undefined && "env" in key ? key.env : target.tokenEnv;
    if (notes.has(name)) continue;
    notes.set(name, [
      `${key === undefined ? "token" : "App private key"} of target ${target.name}`,
    ]);
  }
  return [...notes]
    .map(([name, said]) => {
      const all = [...said, ...(envValue(env, name) === undefined ? ["not set"] : [])];
      return all.length === 0 ? name : `${name} (${all.join(", ")})`;
    })
    .join(", ");
}
