import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { repoRoot } from "../helpers/cli.js";
import { parseOutputs, tempDir } from "./helpers.js";

const run = promisify(execFile);
const bundle = join(repoRoot, "action/dist/index.js");

describe("the Action's committed bundle", () => {
  it("is what scripts/build-action.js builds from the current sources (run `npm run build:action`)", async () => {
    const fresh = join(tempDir(), "index.js");
    await run(process.execPath, ["scripts/build-action.js", fresh], { cwd: repoRoot });
    expect(readFileSync(bundle).equals(readFileSync(fresh))).toBe(true);
  });

  it("runs on its own, with no node_modules, as the runner starts it", async () => {
    // The runner checks out the Action's repository and runs `node action/dist/index.js`.
    const checkout = tempDir();
    mkdirSync(join(checkout, "action/dist"), { recursive: true });
    copyFileSync(bundle, join(checkout, "action/dist/index.js"));
    copyFileSync(join(repoRoot, "package.json"), join(checkout, "package.json"));
    const workspace = tempDir();
    writeFileSync(
      join(workspace, "forgeplan.yaml"),
      "version: 1\nrepositories:\n  - name: acme/api\n    branch_protection:\n      main: { enforce_admins: 3 }\n",
    );
    const output = join(workspace, "output");
    writeFileSync(output, "");
    const result = await run(process.execPath, [join(checkout, "action/dist/index.js")], {
      cwd: workspace,
      env: {
        PATH: process.env.PATH,
        GITHUB_OUTPUT: output,
        GITHUB_WORKSPACE: workspace,
        "INPUT_GITHUB-TOKEN": "ghs_bundleTokenNeverShown",
      },
    }).catch((error: { code: number; stdout: string }) => error);
    expect("code" in result && result.code).toBe(1);
    expect(result.stdout).toBe(
      "::add-mask::ghs_bundleTokenNeverShown\n" +
        "::error file=forgeplan.yaml,line=5,col=31,title=forgeplan config::repositories[0].branch_protection.main.enforce_admins: expected true or false or null, found the number 3\n",
    );
    expect(parseOutputs(readFileSync(output, "utf8"))).toEqual({
      "exit-code": "1",
      "has-changes": "false",
    });
  });

  it("is what action.yml runs, on the runner's current Node, with every input the code reads", () => {
    const action = YAML.parse(readFileSync(join(repoRoot, "action.yml"), "utf8")) as {
      runs: { using: string; main: string };
      inputs: Record<string, unknown>;
      outputs: Record<string, unknown>;
    };
    expect(action.runs).toEqual({ using: "node24", main: "action/dist/index.js" });
    const source = readFileSync(join(repoRoot, "src/action/inputs.ts"), "utf8");
    const read = [...source.matchAll(/(?:raw|boolean)\(env, "([\w-]+)"\)/g)].map((m) => m[1]);
    expect(new Set(read)).toEqual(new Set(Object.keys(action.inputs)));
    expect(Object.keys(action.outputs).sort()).toEqual(["exit-code", "has-changes", "plan-json"]);
  });
});
