import { type ParseArgsConfig, parseArgs } from "node:util";
import { CliError } from "./io.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * Parses a subcommand's flags with node's own parser (no dependency needed for this small surface),
 * turning its exceptions into one-line CliErrors that name the command.
 */
export function parseFlags<const O extends Options>(
  command: string,
  argv: string[],
  options: O,
  { positionals = false }: { positionals?: boolean } = {},
): ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>
> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: positionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`${command}: ${message.split("\n")[0]} (see 'forgeplan help')`);
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
