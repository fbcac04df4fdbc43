import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";

describe("npm run demo", () => {
  it("runs on the build npm ci made, compiling nothing again, and plans, applies and plans no change", () => {
    // The global setup has built dist/, as npm ci does: the demo must use that build as it is.
    const main = join(repoRoot, "dist", "cli", "main.js");
    const built = statSync(main).mtimeMs;
    const result = spawnSync("npm", ["run", "demo", "--silent"], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { PATH: process.env.PATH },
      timeout: 90_000,
    });
    expect(result.stderr).not.toContain("building dist/");
    expect(result.stderr).toBe("");
    expect(statSync(main).mtimeMs).toBe(built);
    expect(result.status).toBe(0);
    const steps = result.stdout.split("━━ ");
    expect(steps).toHaveLength(4);
    expect(steps[1]).toContain("(exit code 2)");
    expect(steps[2]).toContain("Apply: 6 applied, 0 failed, 0 held, 0 skipped.");
    expect(steps[3]).toContain("No changes. Live state matches the desired state.");
    expect(steps[3]).toContain("(exit code 0)");
  });
});
