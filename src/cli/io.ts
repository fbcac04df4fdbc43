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
}

/** A subcommand: receives the arguments after its name and returns the process exit code. */
export type Command = (argv: string[], io: CliIO) => Promise<number>;

/**
 * An expected failure with a one-line cause for the user (bad flag, bad file, failed request).
 * The dispatcher prints `forgeplan: <message>` on stderr and exits 1, never a stack trace.
 */
export class CliError extends Error {
  override name = "CliError";
}
