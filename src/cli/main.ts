#!/usr/bin/env node
import { createInterface } from "node:readline/promises";
import { isatty } from "node:tty";
import type { CliIO } from "./io.js";
import { runCli } from "./run.js";

const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => controller.abort());
}

const io: CliIO = {
  stdout: { write: (text) => process.stdout.write(text), isTTY: process.stdout.isTTY === true },
  stderr: { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY === true },
  // Not process.stdin.isTTY: creating that stream can make descriptor 0 non-blocking, and `-c -`
  // reads it synchronously.
  stdinIsTTY: isatty(0),
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
  prompt: async (question) => {
    const terminal = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await terminal.question(question);
    } finally {
      terminal.close();
    }
  },
};

const code = await runCli(process.argv.slice(2), io);
// The command is done: leave now, once what was written has been flushed, rather than wait for
// idle keep-alive connections or a rate-limit timer that no request is waiting on any more.
process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
