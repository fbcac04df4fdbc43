import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";

/** Every .ts file under `dir`, at any depth. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("the sandbox's independence", () => {
  it("imports nothing of the reconciler: only its own modules and data, node built-ins, yaml, zod, graphql and libsodium", () => {
    const root = join(repoRoot, "src/sandbox");
    const imports = sources(root).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from "([^"]+)"/g)].map((match) => ({
        file: relative(root, file),
        source: match[1]!,
        inside:
          match[1]!.startsWith(".") &&
          !relative(root, resolve(dirname(file), match[1]!)).startsWith(".."),
      })),
    );
    const foreign = imports
      .filter(
        ({ source, inside }) =>
          !inside && !/^(node:[\w/]+|yaml|zod|graphql|libsodium-wrappers)$/.test(source),
      )
      .map(({ file, source }) => `${file}: ${source}`);
    expect(imports.length).toBeGreaterThan(20);
    expect(foreign).toEqual([]);
  });
});
