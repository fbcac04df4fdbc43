import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Builds dist/ and the command's bundle (dist/bin/, scripts/build-cli.js) so subprocess tests run
 * the current code as users run it. Type errors are reported by `tsc --noEmit`
 * in `npm test`; here tsc still emits on them, so only a missing entry point stops the run. Build
 * mode (`-b`) finds dist/ current from its build info (dist/.tsbuildinfo, written by `npm ci`'s
 * build too) without compiling anything, and otherwise builds what changed.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  try {
    execFileSync(
      process.execPath,
      ["node_modules/typescript/bin/tsc", "-b", "tsconfig.build.json"],
      {
        cwd: root,
        stdio: "pipe",
      },
    );
  } catch (error) {
    if (!existsSync(`${root}dist/cli/main.js`)) throw error;
  }
  execFileSync(process.execPath, ["scripts/build-cli.js"], { cwd: root, stdio: "pipe" });
}
