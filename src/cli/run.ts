import { readFileSync } from "node:fs";
import { closest } from "../config/suggest.js";
import { Redactor } from "../core/redact.js";
import { printable } from "../render/wording.js";
import { CliError, type CliIO, type Command, type CommandIO } from "./io.js";

/**
 * The exit code of a run that a SIGINT or SIGTERM kept from finishing, as shells give a process
 * killed by SIGINT (128 + 2): CI can tell an interruption from a failure.
 */
const INTERRUPTED = 130;

// Commands are imported lazily so `forgeplan --version` and `--help` start fast; the sandbox, which
// shares no code with the others, on its own.
const commands: Record<string, () => Promise<Command>> = {
  validate: async () => (await import("./commands.js")).validate,
  plan: async () => (await import("./commands.js")).plan,
  apply: async () => (await import("./commands.js")).apply,
  drift: async () => (await import("./commands.js")).drift,
  ci: async () => (await import("./commands.js")).ciCommand(runCli),
  export: async () => (await import("./commands.js")).exportCommand,
  migrate: async () => (await import("./commands.js")).migrate,
  schema: async () => (await import("./commands.js")).schema,
  sandbox: async () => (await import("./sandbox.js")).sandbox,
};

const usage = `usage: forgeplan <command> [options]

commands:
  validate   load and check the desired state
  plan       read live state and print the plan
  apply      apply a plan, then re-read and verify
  drift      the plan for scheduled runs: exit 2 on any drift or audit finding
  ci         GitLab CI: plan with a merge-request note, apply what was reviewed, drift issues
  export     print desired-state YAML from live state
  migrate    protection-to-rulesets: YAML with rulesets that replace classic branch protection
  schema     print the JSON Schema of the config
  sandbox    run the local emulator of the service
  version    print forgeplan's version (also -v, --version)

Run 'forgeplan <command> --help' for a command's options.
`;

const VERSION_HELP = `usage: forgeplan version

Prints forgeplan's version (also forgeplan -v, forgeplan --version).
  -h, --help               this text
`;

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

/**
 * Runs the CLI in-process and returns the exit code; every expected error becomes one stderr line.
 * Everything written to stdout and stderr passes through the run's redactor first.
 */
export async function runCli(argv: string[], outer: CliIO): Promise<number> {
  const redactor = outer.redactor ?? new Redactor();
  const io: CommandIO = {
    ...outer,
    redactor,
    stdout: redactor.writer(outer.stdout),
    stderr: redactor.writer(outer.stderr),
  };
  const [name, ...rest] = argv;
  try {
    if (name === undefined) {
      throw new CliError(
        `no command given (commands: ${Object.keys(commands).join(", ")}); see 'forgeplan --help'`,
      );
    }
    if (name === "help" || name === "--help" || name === "-h") {
      io.stdout.write(usage);
      return 0;
    }
    if (name === "--version" || name === "-V" || name === "-v" || name === "version") {
      if (name === "version" && rest.length > 0) {
        if (rest.length === 1 && (rest[0] === "--help" || rest[0] === "-h")) {
          io.stdout.write(VERSION_HELP);
          return 0;
        }
        throw new CliError(
          `version: takes no arguments, got '${rest.join(" ")}'; see 'forgeplan version --help'`,
        );
      }
      io.stdout.write(`${version()}\n`);
      return 0;
    }
    const load = commands[name];
    if (load === undefined) {
      const known = Object.keys(commands);
      const suggestion = name.startsWith("-") ? undefined : closest(name, known);
      throw new CliError(
        suggestion === undefined
          ? `unknown command '${name}' (commands: ${known.join(", ")})`
          : `unknown command '${name}' (did you mean '${suggestion}'?); see 'forgeplan --help'`,
      );
    }
    const command = await load();
    const code = await command(rest, io);
    // A command that ends well although signalled (the sandbox stops on one) keeps its 0.
    return io.signal.aborted && code !== 0 ? INTERRUPTED : code;
  } catch (error) {
    if (error instanceof CliError) {
      // One line whatever the message quotes (a file name, V8's quote of a broken plan file with
      // its newlines): control characters show as escapes, never as a break or a terminal command.
      io.stderr.write(`forgeplan: ${printable(error.message)}\n`);
      return io.signal.aborted ? INTERRUPTED : 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`forgeplan: internal error: ${message.split("\n")[0]}\n`);
    if (io.env.FORGEPLAN_DEBUG && error instanceof Error) io.stderr.write(`${error.stack}\n`);
    return 1;
  }
}
