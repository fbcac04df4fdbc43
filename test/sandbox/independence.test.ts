import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";

/** Every .ts file under a folder, at any depth. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("the sandbox's independence", () => {
  it("imports nothing of the reconciler: only its own modules and data, node built-ins, yaml, zod and libsodium", () => {
    const dir = join(repoRoot, "src/sandbox");
    const imports = sources(dir).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from "([^"]+)"/g)].map((match) => ({
        file: relative(dir, file),
        source: match[1]!,
        inside:
          match[1]!.startsWith(".") &&
          !relative(dir, resolve(dirname(file), match[1]!)).startsWith(".."),
      })),
    );
    const foreign = imports
      .filter(
        ({ source, inside }) =>
          !inside && !/^(node:[\w/]+|yaml|zod|libsodium-wrappers)$/.test(source),
      )
      .map(({ file, source }) => `${file}: ${source}`);
    expect(imports.length).toBeGreaterThan(20);
    expect(foreign).toEqual([]);
  });
});
