import { type ParseArgsConfig, parseArgs } from "node:util";
import { closest } from "../config/suggest.js";
import { CliError } from "./io.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Where a command's user reads what it takes. */
export function helpHint(command: string): string {
  return `see 'forgeplan ${command} --help'`;
}

/** An argument that names a configuration file, which goes after -c. */
export function looksLikeConfig(argument: string): boolean {
  return /\.ya?ml$/i.test(argument);
}

/** The hint for a configuration file given where a command takes none, or takes another file. */
export function configHint(argument: string): string {
  return `${argument} is a configuration: name it with -c (-c ${argument})`;
}

/**
 * What is wrong with the arguments, in the command's words: an unknown option with the closest
 * known one, an option missing its value or given one it does not take, an argument where none is
 * taken. node's own messages name none of this and point nowhere; these end in the command's help.
 */
function problemWith(
  command: string,
  argv: string[],
  options: Options,
  positionals: boolean,
): string | undefined {
  const { tokens } = parseArgs({
    args: argv,
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === "positional") {
      if (positionals) continue;
      return looksLikeConfig(token.value)
        ? `unexpected argument '${token.value}': ${configHint(token.value)}`
        : `unexpected argument '${token.value}'`;
    }
    if (token.kind !== "option") continue;
    // node names a known short option by its long name; an unknown one keeps its letter.
    const option = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (option === undefined) {
      const known = Object.keys(options).map((key) => `--${key}`);
      const suggestion = token.rawName.startsWith("--") ? closest(token.rawName, known) : undefined;
      return `unknown option ${token.rawName}${suggestion === undefined ? "" : ` (did you mean ${suggestion}?)`}`;
    }
    // A value that is itself an option (`--format --sandbox`) means the value was left out.
    const value = token.value;
    if (
      option.type === "string" &&
      (value === undefined || (!token.inlineValue && value.startsWith("-") && value !== "-"))
    ) {
      return `${token.rawName} needs a value`;
    }
    if (option.type === "boolean" && token.inlineValue) return `${token.rawName} takes no value`;
  }
  return undefined;
}

/**
 * Parses a subcommand's flags with node's own parser (no dependency needed for this small surface),
 * refusing bad arguments in one line that names the command and ends in its help.
 */
export function parseFlags<const O extends Options>(
  command: string,
  argv: string[],
  options: O,
  { positionals = false }: { positionals?: boolean } = {},
): ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>
> {
  const problem = problemWith(command, argv, options, positionals);
  if (problem !== undefined) throw new CliError(`${command}: ${problem}; ${helpHint(command)}`);
  try {
    return parseArgs({ args: argv, options, allowPositionals: positionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`${command}: ${message.split("\n")[0]}; ${helpHint(command)}`);
  }
}

/** Parses a flag value that must be a non-negative integer. */
export function parseCount(
  command: string,
  flag: string,
  value: string | undefined,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) {
    throw new CliError(`${command}: --${flag} expects a whole number, got '${value}'`);
  }
  return Number(value);
}
