import { describe, expect, it } from "vitest";
import { runBuilt, runInProcess } from "../helpers/cli.js";

describe("forgeplan dispatcher", () => {
  it("prints the package version", async () => {
    const result = await runBuilt(["--version"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("rejects an unknown command with one line on stderr and exit 1", async () => {
    const result = await runInProcess(["frobnicate"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "forgeplan: unknown command 'frobnicate' (commands: validate, plan, apply, drift, ci, export, migrate, schema, sandbox)\n",
    );
  });

  it("without a command, exits 1 with one line on stderr", async () => {
    expect(await runInProcess([])).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "forgeplan: no command given (commands: validate, plan, apply, drift, ci, export, migrate, schema, sandbox); see 'forgeplan --help'\n",
    });
  });

  it("prints usage with help and exits 0", async () => {
    const result = await runInProcess(["help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("usage: forgeplan <command>");
  });
});
