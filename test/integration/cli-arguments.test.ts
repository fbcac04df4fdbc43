import { describe, expect, it } from "vitest";
import * as apply from "../../src/cli/apply.js";
import * as drift from "../../src/cli/drift.js";
import * as exportCommand from "../../src/cli/export.js";
import * as migrate from "../../src/cli/migrate.js";
import * as plan from "../../src/cli/plan.js";
import * as sandbox from "../../src/cli/sandbox.js";
import * as schema from "../../src/cli/schema.js";
import * as validate from "../../src/cli/validate.js";
import { version } from "../../src/cli/run.js";
import { runBuilt, runInProcess } from "../helpers/cli.js";

const commands = {
  apply,
  drift,
  export: exportCommand,
  migrate,
  plan,
  sandbox,
  schema,
  validate,
};

describe("each command's --help", () => {
  it.each(Object.entries(commands))("names every flag %s accepts", async (name, command) => {
    const result = await runInProcess([name, "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(command.help);
    const flags = command.flags as Record<string, { short?: string }>;
    const missing = Object.entries(flags).flatMap(([flag, option]) => [
      ...(command.help.includes(`--${flag}`) ? [] : [`--${flag}`]),
      ...(option.short === undefined || command.help.includes(`-${option.short},`)
        ? []
        : [`-${option.short}`]),
    ]);
    expect(missing).toEqual([]);
  });
});

describe("arguments a command does not take", () => {
  it("names an unknown option, the closest one it knows, and the command's help", async () => {
    const result = await runInProcess(["plan", "--formt", "json"]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "forgeplan: plan: unknown option --formt (did you mean --format?); see 'forgeplan plan --help'\n",
    });
  });

  it("says so plainly when nothing is close, or for a short option", async () => {
    expect((await runInProcess(["drift", "--frobnicate"])).stderr).toBe(
      "forgeplan: drift: unknown option --frobnicate; see 'forgeplan drift --help'\n",
    );
    expect((await runInProcess(["validate", "-x"])).stderr).toBe(
      "forgeplan: validate: unknown option -x; see 'forgeplan validate --help'\n",
    );
  });

  it("names an option whose value is missing, or that takes none", async () => {
    expect((await runInProcess(["plan", "--format"])).stderr).toBe(
      "forgeplan: plan: --format needs a value; see 'forgeplan plan --help'\n",
    );
    expect((await runInProcess(["plan", "--out", "--sandbox"])).stderr).toBe(
      "forgeplan: plan: --out needs a value; see 'forgeplan plan --help'\n",
    );
    expect((await runInProcess(["apply", "--auto-approve=yes"])).stderr).toBe(
      "forgeplan: apply: --auto-approve takes no value; see 'forgeplan apply --help'\n",
    );
  });

  it("points a configuration given as an argument to -c", async () => {
    expect(await runInProcess(["apply", "examples/forgeplan.yaml"])).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "forgeplan: apply: examples/forgeplan.yaml is a configuration: name it with -c (-c examples/forgeplan.yaml); a file given alone is a saved plan (plan --out)\n",
    });
    expect((await runInProcess(["validate", "examples/forgeplan.yaml"])).stderr).toBe(
      "forgeplan: validate: unexpected argument 'examples/forgeplan.yaml': examples/forgeplan.yaml is a configuration: name it with -c (-c examples/forgeplan.yaml); see 'forgeplan validate --help'\n",
    );
    expect((await runInProcess(["plan", "forgeplan.yml"])).stderr).toBe(
      "forgeplan: plan: unexpected argument 'forgeplan.yml': forgeplan.yml is a configuration: name it with -c (-c forgeplan.yml)\n",
    );
  });

  it("suggests the command meant by a misspelt one", async () => {
    expect((await runInProcess(["paln"])).stderr).toBe(
      "forgeplan: unknown command 'paln' (did you mean 'plan'?); see 'forgeplan --help'\n",
    );
  });
});

describe("the version", () => {
  it.each([["-v"], ["--version"], ["-V"], ["version"]])("is printed by %s", async (flag) => {
    expect(await runInProcess([flag])).toEqual({ code: 0, stdout: `${version()}\n`, stderr: "" });
  });

  it("is printed by the built command", async () => {
    expect(await runBuilt(["version"])).toEqual({ code: 0, stdout: `${version()}\n`, stderr: "" });
  });
});
