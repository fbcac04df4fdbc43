import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { builtCli, repoRoot } from "../helpers/cli.js";

const run = promisify(execFile);
const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

/** The `sh` blocks of a README section (from its heading to the next heading of its level). */
function shellLines(heading?: string): string[] {
  let text = readme;
  if (heading !== undefined) {
    const start = readme.indexOf(`\n${heading}\n`);
    const level = heading.split(" ")[0];
    const end = readme.indexOf(`\n${level} `, start + heading.length + 2);
    text = readme.slice(start, end === -1 ? undefined : end);
  }
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((match) => (match[1] ?? "").split("\n"))
    .filter((line) => line.trim() !== "");
}

describe("the README's commands", () => {
  it("run forgeplan as npx forgeplan, which npm ci provides, never a bare forgeplan", () => {
    const bare = shellLines().filter((line) => /(^|[;&|]\s*)forgeplan\s/.test(line.trim()));
    expect(bare).toEqual([]);
  });

  it.each(["## A short tour", "## Configuration", "## Repository settings"])(
    "in %s work as shown, with the exit codes they state",
    async (heading) => {
      const lines = shellLines(heading);
      expect(lines.length).toBeGreaterThan(2);
      const cwd = mkdtempSync(join(tmpdir(), "forgeplan-readme-"));
      cpSync(join(repoRoot, "examples"), join(cwd, "examples"), { recursive: true });
      mkdirSync(join(cwd, "schema"));
      for (const line of lines) {
        const [command = "", comment = ""] = line.split(/\s+#\s/);
        const expected = Number(/exit (\d)/.exec(comment)?.[1] ?? 0);
        const script = command.replaceAll("npx forgeplan", `"${process.execPath}" "${builtCli}"`);
        const code = await run("sh", ["-c", script], { cwd, env: { PATH: process.env.PATH } }).then(
          () => 0,
          (error: { code?: number }) => error.code ?? -1,
        );
        expect(`${code} ${command}`).toBe(`${expected} ${command}`);
      }
    },
  );
});
