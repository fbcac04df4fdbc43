import { describe, expect, it } from "vitest";
import { repoRoot, runInProcess } from "../helpers/cli.js";
import { sandbox } from "../sandbox/helpers.js";

/**
 * A markdown plan fits a GitHub comment from the command line too, as the Action's comment does:
 * at most --max-length characters (default 65,536, GitHub's limit), cut between sections, with a
 * count of what was left out.
 */
describe("plan --format markdown", () => {
  it("fits GitHub's comment limit by default, says how much it left out, and prints it all with --max-length 0", async () => {
    const world = await sandbox({ generate: 100 });
    const at = ["-c", "examples/scale.yaml", "--sandbox-url", world.url, "--format", "markdown"];
    const cut = await runInProcess(["plan", ...at], { cwd: repoRoot });
    expect(cut.code).toBe(2);
    expect(cut.stdout.length).toBeLessThanOrEqual(65_536);
    const note =
      /_… (\d+) more sections not shown: the plan is longer than 65,536 characters; plan with --max-length 0 for all of it\._/.exec(
        cut.stdout,
      );
    expect(note).not.toBeNull();
    const whole = await runInProcess(["plan", ...at, "--max-length", "0"], { cwd: repoRoot });
    expect(whole.stdout.length).toBeGreaterThan(65_536);
    const sections = (text: string) => text.split("<details").length - 1;
    expect(sections(cut.stdout) + Number(note![1])).toBe(sections(whole.stdout));

    const short = await runInProcess(["plan", ...at, "--max-length", "20000"], { cwd: repoRoot });
    expect(short.stdout.length).toBeLessThanOrEqual(20_000);
  });

  it("refuses --max-length where nothing is cut", async () => {
    const result = await runInProcess(["plan", "--sandbox", "--max-length", "100"], {
      cwd: repoRoot,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("forgeplan: plan: --max-length applies to --format markdown\n");
  });
});
