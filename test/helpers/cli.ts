import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { CliIO } from "../../src/cli/io.js";
import { runCli } from "../../src/cli/run.js";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const builtCli = fileURLToPath(new URL("../../dist/bin/forgeplan.js", import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured streams; the fast path for most CLI tests. */
export async function runInProcess(
  argv: string[],
  options: {
    env?: Record<string, string | undefined>;
    cwd?: string;
    tty?: boolean;
    /** What the user types at a prompt (only asked on a TTY). */
    answer?: string;
    /** Interrupts the run, as Ctrl-C does. */
    signal?: AbortSignal;
    /** Sees each piece of stdout as it is written (to interrupt at a given point). */
    onStdout?: (text: string) => void;
  } = {},
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const tty = options.tty ?? false;
  const io: CliIO = {
    stdout: {
      write: (text) => {
        stdout += text;
        options.onStdout?.(text);
      },
      isTTY: tty,
    },
    stderr: {
      write: (text) => {
        stderr += text;
      },
      isTTY: tty,
    },
    stdinIsTTY: tty,
    env: options.env ?? {},
    cwd: options.cwd ?? repoRoot,
    signal: options.signal ?? new AbortController().signal,
    prompt: async (question) => {
      stderr += question;
      return options.answer ?? "";
    },
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

/** Runs the built CLI as a user would, in a child process (the build is made by the global setup). */
export function runBuilt(
  argv: string[],
  options: {
    env?: Record<string, string | undefined>;
    cwd?: string;
    timeoutMs?: number;
    /** Piped to the command's stdin, which otherwise ends at once. */
    input?: string;
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [builtCli, ...argv], {
      cwd: options.cwd ?? repoRoot,
      env: { PATH: process.env.PATH, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      timeout: options.timeoutMs ?? 30_000,
    });
    child.stdin.end(options.input);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
