import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { builtCli, repoRoot } from "../helpers/cli.js";

/**
 * Every command a page of docs/ shows in an `sh` block runs as written, in order, from a directory
 * holding the checkout's examples, with the exit code its comment states (`# … exit 2`, else 0) or,
 * for curl, the status it notes (`# → 200`). The one thing changed is the sandbox's port: a page
 * that starts `npx forgeplan sandbox --port 18787` gets a free port, and its commands the address.
 * `npm …` and `node bench/…` lines (the whole suite, the benchmarks: minutes each) are checked to
 * name a script or file that exists, not run; the demo is run by test/integration/demo.test.ts.
 */

const run = promisify(execFile);
const DOCS_PORT = "18787";
const docs = join(repoRoot, "docs");
const pages = readdirSync(docs).filter((name) => name.endsWith(".md"));
const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
};

function shellLines(text: string): string[] {
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((match) => (match[1] ?? "").split("\n"))
    .filter((line) => line.trim() !== "");
}

const cli = `"${process.execPath}" "${builtCli}"`;
const started: ChildProcess[] = [];

afterEach(async () => {
  for (const child of started.splice(0)) {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  }
});

/** Starts a sandbox line as written (its port made free); resolves to the first line it prints. */
async function startSandbox(command: string, cwd: string): Promise<string> {
  const args = command
    .replace(/\s*&$/, "")
    .replace(`--port ${DOCS_PORT}`, "--port 0")
    .replace(/^npx forgeplan /, "")
    .split(/\s+/);
  const child = spawn(process.execPath, [builtCli, ...args], {
    cwd,
    stdio: ["ignore", "pipe", "inherit"],
  });
  started.push(child);
  const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
  return line;
}

describe("the commands docs/ shows", () => {
  it("run forgeplan as npx forgeplan, never a bare forgeplan", () => {
    const bare = pages.flatMap((page) =>
      shellLines(readFileSync(join(docs, page), "utf8"))
        .filter((line) => /(^|[;&|]\s*)forgeplan\s/.test(line.trim()))
        .map((line) => `${page}: ${line}`),
    );
    expect(bare).toEqual([]);
  });

  const withCommands = pages.filter(
    (page) => shellLines(readFileSync(join(docs, page), "utf8")).length > 0,
  );

  it.each(withCommands)(
    "on %s work as written, with the exit codes and statuses they state",
    async (page) => {
      const cwd = mkdtempSync(join(tmpdir(), "forgeplan-docs-"));
      cpSync(join(repoRoot, "examples"), join(cwd, "examples"), { recursive: true });
      mkdirSync(join(cwd, "schema"));
      let address = `127.0.0.1:${DOCS_PORT}`;
      let listening = "";
      for (const line of shellLines(readFileSync(join(docs, page), "utf8"))) {
        if (line.startsWith("# forgeplan sandbox listening on ")) {
          // What the page says the sandbox prints first, at the port the page gave it.
          expect(listening.replace(address, `127.0.0.1:${DOCS_PORT}`)).toBe(line.slice(2));
          continue;
        }
        if (line.startsWith("#")) continue;
        const [command = "", comment = ""] = line.split(/\s+#\s/);
        if (/^npx forgeplan sandbox\b/.test(command)) {
          listening = await startSandbox(command, cwd);
          address = /listening on http:\/\/(\S+)/.exec(listening)?.[1] ?? "";
          expect(address, listening).not.toBe("");
          continue;
        }
        const npm = /^npm (?:run (\S+)|(test))\b/.exec(command);
        if (npm !== null) {
          expect(Object.keys(manifest.scripts), command).toContain(npm[1] ?? npm[2]);
          continue;
        }
        const node = /^node (bench\/\S+)/.exec(command);
        if (node !== null) {
          expect(existsSync(join(repoRoot, node[1]!)), command).toBe(true);
          continue;
        }
        let script = command
          .replaceAll(`127.0.0.1:${DOCS_PORT}`, address)
          .replaceAll("npx forgeplan", cli);
        const status = /^→ (\d{3})/.exec(comment)?.[1];
        if (status !== undefined) script += " -o /dev/null -w '%{http_code}'";
        const outcome = await run("sh", ["-c", script], {
          cwd,
          env: { PATH: process.env.PATH },
          encoding: "utf8",
          maxBuffer: 64 * 1024 * 1024,
        }).then(
          ({ stdout }) => ({ code: 0, stdout }),
          (error: { code?: number; stdout?: string }) => ({
            code: error.code ?? -1,
            stdout: error.stdout ?? "",
          }),
        );
        if (status !== undefined) {
          expect(`${outcome.stdout} ${command}`).toBe(`${status} ${command}`);
        } else {
          const expected = Number(/exit (\d)/.exec(comment)?.[1] ?? 0);
          expect(`${outcome.code} ${command}`).toBe(`${expected} ${command}`);
        }
      }
    },
    300_000,
  );
});
