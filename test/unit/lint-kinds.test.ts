import { join } from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import forgeplan from "../../eslint.plugin.js";
import { repoRoot } from "../helpers/cli.js";

/** What `forgeplan/kinds` says of a source file at `path` (relative to the repository). */
async function kindsRule(path: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: repoRoot,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ["**/*.ts"],
        languageOptions: { parser: tseslint.parser },
        plugins: { forgeplan },
        rules: { "forgeplan/kinds": "error" },
      },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: join(repoRoot, path) });
  return (result?.messages ?? []).map((message) => message.message);
}

describe("forgeplan/kinds: kinds do not import each other", () => {
  it("refuses an import from another kind's folder, a type-only one and a re-export too", async () => {
    for (const code of [
      'import { labelsPath } from "../label/plan.js";',
      'import type { Labels } from "../label/settings.js";',
      'export { labelsPath } from "../label/plan.js";',
      'const plan = import("../label/plan.js");',
    ]) {
      expect(await kindsRule("src/resources/ruleset/plan.ts", code)).toEqual([
        "the ruleset kind may not import src/resources/label/: kinds do not import each other; move what they share to a module of src/resources/ (see eslint.plugin.js)",
      ]);
    }
  });

  it("refuses a shared module of src/resources/ that imports a kind's folder", async () => {
    expect(
      await kindsRule("src/resources/collection.ts", 'import "./label/plan.js";'),
    ).toHaveLength(1);
  });

  it("lets a kind import its own folder and the shared modules, and the registry every kind", async () => {
    const own =
      'import { labelsPath } from "./plan.js";\nimport { planCollection } from "../collection.js";';
    expect(await kindsRule("src/resources/label/index.ts", own)).toEqual([]);
    const deeper = 'import { x } from "../../label/plan.js";';
    expect(await kindsRule("src/resources/label/inner/x.ts", deeper)).toEqual([]);
    expect(
      await kindsRule("src/resources/index.ts", 'import { label } from "./label/index.js";'),
    ).toEqual([]);
  });
});
