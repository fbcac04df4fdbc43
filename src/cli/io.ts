import type { Redactor } from "../core/redact.js";

/** The terminal and process surroundings a command runs in; passed in so tests can drive commands in-process. */
export interface Output {
  write(text: string): void;
  readonly isTTY: boolean;
}

export interface CliIO {
  readonly stdout: Output;
  readonly stderr: Output;
  readonly stdinIsTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborted when the user asks the process to stop (SIGINT/SIGTERM); long-running commands end on it. */
  readonly signal: AbortSignal;
  /** Asks the user a question on the terminal and returns the answer; only used when stdin is a TTY. */
  readonly prompt?: (question: string) => Promise<string>;
  /**
   * The run's redactor, when the caller already has one (the Action registers its inputs first);
   * otherwise `runCli` makes one.
   */
  readonly redactor?: Redactor;
}

/**
 * What a command runs with: stdout and stderr already pass through the run's redactor, which the
 * command also hands to the other places it writes (plan files, the cache, issue bodies) and to the
 * loader, which teaches it the configuration's sensitive values.
 */
export interface CommandIO extends CliIO {
  readonly redactor: Redactor;
}

/** A subcommand: receives the arguments after its name and returns the process exit code. */
export type Command = (argv: string[], io: CommandIO) => Promise<number>;

/** forgeplan's command line run in-process (./run.ts's `runCli`), for a command that runs others. */
export type RunCli = (argv: string[], io: CliIO) => Promise<number>;

/**
 * An expected failure with a one-line cause for the user (bad flag, bad file, failed request).
 * The dispatcher prints `forgeplan: <message>` on stderr and exits 1, never a stack trace.
 */
export class CliError extends Error {
  override name = "CliError";
}
