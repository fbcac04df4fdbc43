import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { LoadResult } from "../../src/config/load.js";
import { loadDesiredState } from "../../src/engine/desired.js";
import { repoRoot } from "../helpers/cli.js";

const env = { CI_HOOK_SECRET: "s", CI_HOOK_AUTH: "a", GITHUB_TOKEN: "t" };
const seeds = ["forgeplan.yaml", "org-baseline.yaml", "planning-cleanup.yaml"].map((name) =>
  readFileSync(`${repoRoot}examples/${name}`),
);

function load(content: Uint8Array | string): LoadResult {
  return loadDesiredState(["m.yaml"], { cwd: "/virtual", env, readFile: () => content });
}

/**
 * The property: an answer, never an exception; when invalid, every error is positioned inside the
 * file and is one line. (Checked with plain comparisons: thousands of inputs, many errors each.)
 */
function checkAnswer(content: Uint8Array | string): boolean {
  const result = load(content);
  if (result.ok) return true;
  const text = typeof content === "string" ? content : Buffer.from(content).toString("utf8");
  const lines = text.split("\n").length;
  const misplaced = result.errors.filter(
    (error) =>
      error.file !== "m.yaml" ||
      !(error.line >= 1 && error.line <= lines && error.column >= 1) ||
      !/\S/.test(error.message) ||
      error.message.includes("\n"),
  );
  if (result.errors.length === 0 || misplaced.length > 0) {
    throw new Error(
      `badly formed errors: ${JSON.stringify(misplaced)} for ${JSON.stringify(text)}`,
    );
  }
  return false;
}

/** Counts the answers, so a run that only ever hits one kind shows up. */
function tally() {
  const counts = { valid: 0, invalid: 0 };
  return { counts, record: (valid: boolean) => void (valid ? counts.valid++ : counts.invalid++) };
}

// ---- mutations of the text: broken indentation, deleted/duplicated/swapped lines, random bytes

const textMutation = fc.oneof(
  fc.record({
    kind: fc.constant("indent" as const),
    line: fc.nat(),
    by: fc.integer({ min: -4, max: 4 }),
  }),
  fc.record({ kind: fc.constant("delete-line" as const), line: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate-line" as const), line: fc.nat() }),
  fc.record({ kind: fc.constant("swap-lines" as const), line: fc.nat(), other: fc.nat() }),
  fc.record({
    kind: fc.constant("bytes" as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 6 }),
  }),
  fc.record({
    kind: fc.constant("characters" as const),
    at: fc.nat(),
    text: fc.constantFrom(
      "&a ",
      "*a",
      "!!set ",
      "!x ",
      "{",
      "[",
      "]",
      ": ",
      "- ",
      "\t",
      "'",
      '"',
      "${",
      "$${X}",
      "---\n",
      "<<: ",
    ),
  }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
);
type TextMutation = typeof textMutation extends fc.Arbitrary<infer T> ? T : never;

function mutateText(bytes: Uint8Array, mutation: TextMutation): Uint8Array {
  const lines = Buffer.from(bytes).toString("latin1").split("\n");
  const pick = (n: number) => n % lines.length;
  const join = () => Buffer.from(lines.join("\n"), "latin1");
  switch (mutation.kind) {
    case "indent": {
      const index = pick(mutation.line);
      const line = lines[index]!;
      lines[index] =
        mutation.by >= 0
          ? " ".repeat(mutation.by) + line
          : line.slice(Math.min(-mutation.by, line.length - line.trimStart().length));
      return join();
    }
    case "delete-line":
      lines.splice(pick(mutation.line), 1);
      return join();
    case "duplicate-line": {
      const index = pick(mutation.line);
      lines.splice(index, 0, lines[index]!);
      return join();
    }
    case "swap-lines": {
      const [a, b] = [pick(mutation.line), pick(mutation.other)];
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      return join();
    }
    case "bytes": {
      const at = mutation.at % (bytes.length + 1);
      return Buffer.concat([bytes.subarray(0, at), mutation.bytes, bytes.subarray(at)]);
    }
    case "characters": {
      const at = mutation.at % (bytes.length + 1);
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(mutation.text), bytes.subarray(at)]);
    }
    case "truncate":
      return bytes.subarray(0, mutation.at % (bytes.length + 1));
  }
}

// ---- mutations of the structure: deleted, duplicated (under a near name), renamed and retyped keys

const anyValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -10, max: 200 }),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
  fc.dictionary(
    fc.string({ maxLength: 6 }),
    fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.constant(null)),
    {
      maxKeys: 3,
    },
  ),
  fc.constantFrom(
    "${MISSING}",
    "${CI_HOOK_SECRET}",
    "acme/*",
    "main",
    "https://x.example/h",
    "2026-01-01T00:00:00Z",
  ),
);

const treeMutation = fc.record({
  kind: fc.constantFrom("delete", "duplicate", "rename", "retype"),
  node: fc.nat(),
  value: anyValue,
  suffix: fc.constantFrom("s", "_", "x", ""),
});
type TreeMutation = typeof treeMutation extends fc.Arbitrary<infer T> ? T : never;

/** Every container in the tree with the keys (or indices) it holds, in a stable order. */
function containers(root: unknown): Array<Record<string, unknown> | unknown[]> {
  const found: Array<Record<string, unknown> | unknown[]> = [];
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    found.push(node as Record<string, unknown>);
    for (const child of Object.values(node)) walk(child);
  };
  walk(root);
  return found;
}

function mutateTree(root: unknown, mutation: TreeMutation): void {
  const all = containers(root);
  const container = all[mutation.node % all.length]!;
  const keys = Object.keys(container);
  if (keys.length === 0) return;
  const key = keys[mutation.node % keys.length]!;
  if (Array.isArray(container)) {
    const index = Number(key);
    if (mutation.kind === "delete") container.splice(index, 1);
    else if (mutation.kind === "duplicate")
      container.splice(index, 0, structuredClone(container[index]));
    else container[index] = mutation.value;
    return;
  }
  const value = container[key];
  if (mutation.kind === "delete") delete container[key];
  else if (mutation.kind === "duplicate") container[key + mutation.suffix] = structuredClone(value);
  else if (mutation.kind === "rename") {
    delete container[key];
    container[key.slice(0, -1) + mutation.suffix] = value;
  } else container[key] = mutation.value;
}

describe("generated input", () => {
  it("never throws on mutated text: valid, or positioned errors", () => {
    const { counts, record } = tally();
    fc.assert(
      fc.property(
        fc.nat(seeds.length - 1),
        fc.array(textMutation, { minLength: 1, maxLength: 4 }),
        (seed, mutations) => {
          record(checkAnswer(mutations.reduce(mutateText, seeds[seed]!)));
        },
      ),
      { numRuns: 2000, seed: 20260101 },
    );
    expect(counts.invalid).toBeGreaterThan(800);
    expect(counts.valid).toBeGreaterThan(100);
  });

  it("never throws on mutated structures: valid, or positioned errors", () => {
    const trees = seeds.map((bytes) => parse(Buffer.from(bytes).toString("utf8")) as unknown);
    const { counts, record } = tally();
    fc.assert(
      fc.property(
        fc.nat(seeds.length - 1),
        fc.array(treeMutation, { minLength: 1, maxLength: 4 }),
        (seed, mutations) => {
          const tree = structuredClone(trees[seed]);
          for (const mutation of mutations) mutateTree(tree, mutation);
          record(checkAnswer(stringify(tree)));
        },
      ),
      { numRuns: 1200, seed: 20260102 },
    );
    expect(counts.invalid).toBeGreaterThan(800);
    expect(counts.valid).toBeGreaterThan(20);
  });

  it("never throws on random bytes", () => {
    const { counts, record } = tally();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => record(checkAnswer(bytes))),
      { numRuns: 1000, seed: 20260103 },
    );
    expect(counts.invalid).toBe(1000);
  });

  it("reports the errors the mutations make, not just any error", () => {
    const tree = parse(Buffer.from(seeds[0]!).toString("utf8")) as {
      repositories: Array<Record<string, unknown>>;
    };
    tree.repositories[0]!.branch_protectoin = tree.repositories[0]!.branch_protection;
    delete tree.repositories[0]!.branch_protection;
    const result = load(stringify(tree));
    expect(
      result.ok ? [] : result.errors.map((error) => `${error.path}: ${error.message}`),
    ).toEqual([
      'repositories[0].branch_protectoin: unknown key "branch_protectoin"; did you mean "branch_protection"?',
    ]);
  });
});
