import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";

describe("the sandbox's independence", () => {
  it("imports nothing of the reconciler: only its own modules and data, node built-ins, yaml and zod", () => {
    const dir = join(repoRoot, "src/sandbox");
    const imports = readdirSync(dir)
      .filter((file) => file.endsWith(".ts"))
      .flatMap((file) =>
        [...readFileSync(join(dir, file), "utf8").matchAll(/from "([^"]+)"/g)].map(
          (match) => `${file}: ${match[1]}`,
        ),
      );
    const foreign = imports.filter(
      (entry) => !/: (\.\/[\w-]+\.js(on)?|node:[\w/]+|yaml|zod)$/.test(entry),
    );
    expect(imports.length).toBeGreaterThan(20);
    expect(foreign).toEqual([]);
  });
});
