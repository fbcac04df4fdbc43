import { readFileSync } from "node:fs";
import { isNode, LineCounter, parseDocument, type Document } from "yaml";
import { SeedError, type SeedPath, SeedProblem } from "../core/seed.js";
import { buildWorlds, type Worlds } from "./build-world.js";
import { type WorldSeed, worldSeedSchema } from "./schema.js";

export { SeedError };

/** A checked seed and how to name a place in its source for error messages. */
export interface LoadedSeed {
  seed: WorldSeed;
  locate: (path: SeedPath) => string;
}

export function keyOf(path: SeedPath): string {
  return path
    .map((part, index) =>
      typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`,
    )
    .join("");
}

/** Checks a seed value (the demo world or a parsed file) against the seed format. */
export function checkSeed(input: unknown, locate: (path: SeedPath) => string): LoadedSeed {
  const parsed = worldSeedSchema.safeParse(input ?? {});
  if (parsed.success) return { seed: parsed.data, locate };
  const issue = parsed.error.issues[0];
  const path = (issue?.path ?? []).filter(
    (part): part is string | number => typeof part !== "symbol",
  );
  throw new SeedError(`${locate(path)}: ${keyOf(path) || "seed"}: ${issue?.message}`);
}

/** Builds the worlds, turning a cross-reference problem into a SeedError at its source. */
export function worldFromSeed({ seed, locate }: LoadedSeed): Worlds {
  try {
    return buildWorlds(seed);
  } catch (error) {
    if (error instanceof SeedProblem) {
      throw new SeedError(`${locate(error.path)}: ${keyOf(error.path)}: ${error.message}`);
    }
    throw error;
  }
}

/** The line of the deepest node on `path` that exists in the document (1-based). */
function lineOf(doc: Document, lines: LineCounter, path: SeedPath): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}

/** Reads and checks a YAML seed file (the format is the demo world's shape, see docs/sandbox.md). */
export function readSeedFile(file: string): LoadedSeed {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw new SeedError(`${file}: ${missing ? "no such file" : "cannot be read"}`);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) {
    const line = lines.linePos(syntax.pos[0]).line;
    throw new SeedError(`${file}:${line}: ${syntax.message.split("\n")[0]}`);
  }
  return checkSeed(doc.toJS(), (path) => `${file}:${lineOf(doc, lines, path)}`);
}
