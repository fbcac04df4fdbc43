import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";

// The command's bundle as test/global-setup.ts builds it (scripts/build-cli.js).
const bin = join(repoRoot, "dist/bin");

/** A file of the bundle and every file it imports statically, transitively (not `import()`). */
function loadedWith(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(bin, file), "utf8");
  for (const [, imported] of text.matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/g)) {
    loadedWith(imported!, seen);
  }
  return seen;
}

/** What `plan` (or any command but the sandbox) loads: the dispatcher and the commands' module. */
function commandFiles(): string[] {
  const commands = readdirSync(bin).filter((name) => /^commands-\w+\.js$/.test(name));
  expect(commands).toHaveLength(1);
  return [...loadedWith(commands[0]!, loadedWith("forgeplan.js"))].sort();
}

describe("the command's bundle", () => {
  it("loads a handful of files for a command, not one per module imported on its own", () => {
    const loaded = commandFiles();
    // Seven files in 2026-11; each command and each kind's export.ts imported on its own made 70,
    // and Node resolves and links each file it loads (docs/scale.md, plan-1k).
    expect(loaded.length, loaded.join(" ")).toBeLessThanOrEqual(10);
  });

  it("keeps the sandbox and libsodium off a command's path", () => {
    const loaded = commandFiles();
    expect(loaded.filter((name) => /^(sandbox|libsodium)/.test(name))).toEqual([]);
    const sodium = loaded.filter((name) =>
      readFileSync(join(bin, name), "utf8").includes("libsodium_wrappers"),
    );
    expect(sodium).toEqual([]);
  });
});
