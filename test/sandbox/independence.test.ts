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

  it("keeps its core free of either service: core imports no area, and names no record of one", () => {
    const root = join(repoRoot, "src/sandbox");
    const core = join(root, "core");
    const outside = sources(core).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from "(\.[^"]+)"/g)]
        .map((match) => relative(core, resolve(dirname(file), match[1]!)))
        .filter((target) => target.startsWith(".."))
        .map((target) => `${relative(root, file)}: ${target}`),
    );
    expect(outside).toEqual([]);
    // Every record type an area declares (github/**/records.ts, gitlab/**/records.ts) …
    const records = sources(root)
      .filter((file) => file.endsWith("records.ts") && !file.startsWith(core))
      .flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/export (?:interface|type|class) (\w+)/g)].map(
          (match) => match[1]!,
        ),
      );
    expect(records).toEqual(
      expect.arrayContaining(["Repository", "Organization", "Group", "Label"]),
    );
    // … is named nowhere in the core's code (comments and strings aside).
    const named = sources(core).flatMap((file) => {
      const code = readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "")
        .replace(/"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""');
      return records
        .filter((name) => new RegExp(`\\b${name}\\b`).test(code))
        .map((name) => `${relative(root, file)}: ${name}`);
    });
    expect(named).toEqual([]);
  });
});
