import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";

const run = promisify(execFile);

describe("the published package", () => {
  it("ships the MIT LICENSE package.json declares, the library, the command and the schema", async () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
      license: string;
    };
    expect(manifest.license).toBe("MIT");
    expect(readFileSync(join(repoRoot, "LICENSE"), "utf8")).toMatch(/^MIT License\n/);
    // What `npm publish` would pack; scripts skipped, since dist/ is built by the test setup.
    const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
    const files = packed!.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "README.md",
        "package.json",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/cli/main.js",
        "dist/bin/forgeplan.js",
        "schema/forgeplan.schema.json",
      ]),
    );
  });
});
