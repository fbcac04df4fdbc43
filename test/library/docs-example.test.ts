import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";

const run = promisify(execFile);

function librarySection(): string {
  return readFileSync(join(repoRoot, "docs", "library.md"), "utf8");
}

describe("docs/library.md's example", () => {
  it("runs as written against the package as installed, and applies and verifies the demo plan", async () => {
    const [example] = [...librarySection().matchAll(/```js\n([\s\S]*?)```/g)].map(
      (match) => match[1] ?? "",
    );
    expect(example).toContain('from "forgeplan"');
    // A project that installed forgeplan: `import "forgeplan"` resolves to this package's exports.
    const project = mkdtempSync(join(tmpdir(), "forgeplan-library-"));
    mkdirSync(join(project, "node_modules"));
    symlinkSync(repoRoot, join(project, "node_modules", "forgeplan"), "dir");
    writeFileSync(join(project, "example.mjs"), example ?? "");
    const { stdout, stderr } = await run(process.execPath, [join(project, "example.mjs")], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH },
      encoding: "utf8",
    });
    expect(stderr).toBe("");
    expect(stdout).toContain(
      "Plan: 1 to create, 3 to update, 2 to delete, 3 to report, 5 unchanged.",
    );
    expect(stdout).toContain("Apply: 6 applied, 0 failed, 0 held, 0 skipped.");
    expect(stdout).toContain("Verified: re-plan shows no changes.");
  });
});
