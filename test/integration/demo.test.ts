import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";

describe("npm run demo", () => {
  it("plans changes, applies them and ends with a plan that shows no changes", () => {
    // The global setup has built dist/, which is what `npm run demo` runs after its own build.
    const result = spawnSync(process.execPath, ["scripts/demo.js"], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { PATH: process.env.PATH },
      timeout: 60_000,
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const steps = result.stdout.split("━━ ");
    expect(steps).toHaveLength(4);
    expect(steps[1]).toContain("(exit code 2)");
    expect(steps[2]).toContain("Apply: 6 applied, 0 failed, 0 held, 0 skipped.");
    expect(steps[3]).toContain("No changes. Live state matches the desired state.");
    expect(steps[3]).toContain("(exit code 0)");
  });
});
