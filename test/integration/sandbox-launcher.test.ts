import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { builtCli } from "../helpers/cli.js";

/**
 * `npx forgeplan sandbox &` runs the sandbox under npm and a shell of npm's: killing the PID the
 * shell reports stops npm, and the sandbox must stop with it rather than listen on, orphaned. The
 * launcher here is a shell standing for npm's, with the variable npm sets for what it runs.
 */
describe("a sandbox npm started", () => {
  it("prints its own pid, and stops when the process that started it ends", async () => {
    const launcher = spawn(
      "sh",
      ["-c", `"${process.execPath}" "${builtCli}" sandbox --port 0; echo done`],
      { env: { PATH: process.env.PATH, npm_command: "exec" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    // What the sandbox says on stderr (that it noticed its launcher end), shown if it does not stop.
    let said = "";
    launcher.stderr!.on("data", (chunk: Buffer) => (said += chunk.toString()));
    const lines: string[] = [];
    const reader = createInterface({ input: launcher.stdout! });
    const two = new Promise<void>((resolve) =>
      reader.on("line", (line) => {
        lines.push(line);
        if (lines.length === 2) resolve();
      }),
    );
    await two;
    const [first = "", second = ""] = lines;
    const url = /listening on (\S+)/.exec(first)?.[1];
    expect(url).toBeDefined();
    const pid = Number(/^pid (\d+): stop it with Ctrl-C or kill \1$/.exec(second)?.[1]);
    expect(pid).toBeGreaterThan(0);
    launcher.kill("SIGKILL");
    // The sandbox notices within its half-second check and exits, in about a second. The bound is
    // generous: once, in a full run of the suite on a busy machine, 10 s went by first.
    const deadline = Date.now() + 25_000;
    let alive = true;
    while (alive && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      alive = running(pid);
    }
    expect(alive, `pid ${pid} still runs (${state(pid)}); it said: ${JSON.stringify(said)}`).toBe(
      false,
    );
    await expect(fetch(`${url}/_sandbox/stats`)).rejects.toThrow();
  });
});

/** The process's state line, for a failure's message. */
function state(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").trim();
  } catch {
    return "no /proc entry";
  }
}

/**
 * Whether `pid` is still running. An orphan that has exited stays a zombie until whatever adopted
 * it reaps it, and in a container that is PID 1, which may reap late or never (CI's did not within
 * 5 s); a zombie has ended, so Linux's process state decides where it can be read.
 */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/\) Z /.test(stat);
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}
