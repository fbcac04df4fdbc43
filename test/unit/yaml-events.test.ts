import { readFileSync, readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments, stringify } from "yaml";
import { LIMITS } from "../../src/config/limits.js";
import { treeFromDocument } from "../../src/config/yaml-document.js";
import { treeFromEvents } from "../../src/config/yaml-events.js";
import { type TreeNode, resolvePlain } from "../../src/config/yaml-tree.js";
import { repoRoot } from "../helpers/cli.js";
import { runs } from "../kinds/harness.js";

/**
 * The fast reading (js-yaml's events) must give exactly the YAML library's tree, offsets
 * included, for every text it does not decline — and must decline every text the library reports
 * a problem in, since the loader would otherwise accept what it refuses today.
 */
function compare(text: string): "fast" | "declined" {
  const fast = treeFromEvents(text, LIMITS.maxDepth);
  if (fast === undefined) return "declined";
  const documents = parseAllDocuments(text, { version: "1.2", uniqueKeys: false });
  const list = Array.isArray(documents) ? documents : [];
  const problems = list.flatMap((document) => [...document.errors, ...document.warnings]);
  expect(
    problems.map((problem) => problem.message),
    JSON.stringify(text),
  ).toEqual([]);
  expect(list, JSON.stringify(text)).toHaveLength(1);
  expect(fast, JSON.stringify(text)).toEqual(treeFromDocument(list[0]!.contents) as TreeNode);
  return "fast";
}

/**
 * Compares `count` random texts (fast-check, seeded) and says how many were read the fast way: a
 * property holds the readings equal only where the fast one does not decline, so its tests also
 * require most to be read that way.
 */
function fastReadings(texts: fc.Arbitrary<string>, seed: number, count: number): number {
  let fast = 0;
  fc.assert(
    fc.property(texts, (text) => {
      if (compare(text) === "fast") fast++;
    }),
    runs(seed, count),
  );
  return fast;
}

/** Read the fast way, and exactly as the library reads them. */
const readFast = [
  // Empty items of block lists: placed after the `-` and its spaces.
  "- \n- x\n",
  "- \n- \n",
  "-\n-\n",
  "- # c\n- \n",
  "a:\n  -\n  - \n  -   \n",
  "- - \n  - \n",
  "a:\n  - \n\n  # c\n  - x\n  -\n",
  "- |\n  text\n- \n- \n",
  "- [a,\n  b]\n- \n",
  "- a: 1\n  b:\n- \n",
  // Keys written after `?`: without a value the pair's value is no node at all.
  "- ? a\n- ? a\n",
  "? a\n? b\n",
  "? a\n: b\nc: d\n",
  "- ? \n",
  "k:\n  ? a\n  ? 'b'\n",
  // Empty keys: the first where the mapping starts, a later one where the value before it ends.
  "defaults:\n  :\n  :\n  :\n",
  "a: b # c\n: d\n: e\n",
  "- : c\n",
  // As deep as LIMITS.maxDepth allows: 64 collections.
  "a: " + "[".repeat(63) + "]".repeat(63) + "\n",
  "a: 1\nb: two\nc: 3.5\n",
  "numbers: [0o17, 0x1F, -12, +7, .5, 1e3, 1.5E-2, .inf, -.Inf, .nan, 0b11, 1_000, 012, 1.10]\n",
  "keys:\n  1.10: a\n  0x10: b\n  007: c\n  '<<': d\n",
  "words: [true, True, TRUE, yes, no, on, off, ~, null, Null, NULL, '', \"\"]\n",
  "quoted: \"tab\\there \\u00e9 \\x41 \\N \\_ \\\\ \\\" end\"\nsingle: 'it''s'\n",
  "lit: |\n  one\n  two\nfold: >\n  one\n  two\n\n  three\nkeep: |+\n  k\n\nstrip: >-\n  s\n",
  "header: | # a comment with | and >\n  text\n",
  "seq:\n- |\n  block in a list\n- >-\n  folded\n",
  "base: &base {a: 1, b: 2}\nuse: *base\nmerged:\n  <<: *base\n  b: 3\n",
  "list: &l [1, 2]\nagain: *l\nmerge-list:\n  <<: [*m1, *m2]\nm: 1\n",
  "a: &x 1\nb: *x\nc: &y\n  d: 2\ne: *y\n",
  "empty:\nafter: 1\nspaced:   \ncommented: # note\nlast:",
  "flow: {a: 1, b: [x, y], c: {d: e}}\nseq: [ a , 'b' , \"c\" ]\n",
  "# leading comment\n---\nkey: value # trailing\n...\n",
  "crlf: 1\r\nnext:\r\n  - a\r\n  - b\r\n",
  'unicode: héllo wörld ☃\nemoji: "😀"\n',
  "- a\n- b: c\n  d: e\n- - nested\n  - list\n",
  "top:\n  - name: acme/api\n    settings: {has_wiki: false}\n  - name: acme/web\n",
  "anchor-key: &k key\n*k : value\n",
  "long: " + "x".repeat(5000) + "\n",
  "key with spaces: v\n'quoted key': v\n\"dq key\": v\n",
  "k: [a,\n  b,\n  c]\n",
  "a: 1\na: 2\n",
  "a: |\n",
];

/**
 * Declined, each for a reason yaml-events.ts names: syntax errors, what only the library warns
 * about, tags, directives, several or no documents, tabs, explicit keys, multi-line plain scalars,
 * empty values outside a block mapping or list.
 */
const declined = [
  // One level past it: the library's reading reports it (source.ts).
  "a: " + "[".repeat(64) + "]".repeat(64) + "\n",
  "plain: a multi\n  line plain\n  scalar\nnext: x\n",
  "indented: |2\n    four spaces\nafter: 1\n",
  "? explicit\n: value\n? [flow, key]\n: v\n",
  // An explicit key with a comment after it, with `:` on its own line, in a flow mapping, anchored.
  "? a # c\n",
  "? a\n:\n",
  "{? a}\n",
  "? &x a\n",
  'tabs:\t1\nx: "a\tb"\n',
  "k: [a,\n]\n",
  "k: {a: 1,\n}\n",
  "%YAML 1.2\n---\na: 1\n",
  "!!map {a: 1}\n",
  "a: !!str 1\n",
  "a: !custom x\n",
  "a: &x: 1\n",
  "a: b\n---\nc: d\n",
  "a: [1, , 2]\n",
  "a:\n  - b\n - c\n",
  "a: 'unterminated\n",
  "",
  "# only a comment\n",
  "---\n",
  "{a: , b}\n",
  "a: &e\nb: *e\n",
  "a: |",
];

describe("reading YAML through js-yaml's events", () => {
  it("reads plain configurations' YAML the fast way, exactly as the library does", () => {
    for (const text of readFast) expect(compare(text), JSON.stringify(text)).toBe("fast");
  });

  it("leaves to the library what the two could read differently or only it reports", () => {
    for (const text of declined) expect(compare(text), JSON.stringify(text)).toBe("declined");
  });

  it("reads every example configuration and documented file the fast way, as the library does", () => {
    const directory = `${repoRoot}examples`;
    const files = readdirSync(directory).filter((name) => /\.ya?ml$/.test(name));
    expect(files.length).toBeGreaterThan(3);
    for (const name of files) {
      expect(compare(readFileSync(`${directory}/${name}`, "utf8")), name).toBe("fast");
    }
  });

  it("resolves plain scalars as the library does, those it skips by their first character too", () => {
    const resolvable = [
      ...["", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE"],
      ...["0o17", "12", "-12", "+7", "0x1F", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", ".NAN"],
      ...["1e3", "1E-3", ".5", "1.", "1.5", "-1.5e+3", "007", "0b11", "1_000", "+", "."],
    ];
    // Every printable ASCII character in front of what would otherwise resolve.
    const printable = Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index));
    const prefixed = printable
      .filter((character) => !/[ #&*!|>'"%@`,[\]{}:?-]/.test(character))
      .flatMap((character) =>
        ["1", "e3", "rue", "ull", "inf", "x1F"].map((rest) => character + rest),
      );
    for (const source of [...resolvable, ...prefixed]) {
      expect(resolvePlain(source, false), JSON.stringify(source)).toEqual(
        parse(`v: ${source}`, { version: "1.2" }).v,
      );
    }
  });

  it("places empty items of block lists as the library does, between comments and other items", () => {
    // An item as written after its `-`, given the list's indentation.
    const item = fc.constantFrom(
      (_: string) => "",
      (_: string) => " ",
      (_: string) => "   # c",
      (_: string) => " x",
      (_: string) => " 'q'",
      (indent: string) => ` |\n${indent}  text`,
      (indent: string) => ` [a,\n${indent}  b]`,
      (indent: string) => ` a: 1\n${indent}  b:`,
      (indent: string) => ` -\n${indent}  -`,
      (_: string) => " - ",
    );
    const between = fc.constantFrom("", "", "\n", "# c\n", "  # c\n");
    const list = fc
      .record({
        nested: fc.boolean(),
        items: fc.array(fc.tuple(between, item), { minLength: 1, maxLength: 8 }),
      })
      .map(({ nested, items }) => {
        const indent = nested ? "  " : "";
        const lines = items.map(([gap, write]) => `${gap}${indent}-${write(indent)}\n`);
        return `${nested ? "k:\n" : ""}${lines.join("")}`;
      });
    // Most are read the fast way, so the comparison is not empty.
    expect(fastReadings(list, 20261133, 1000)).toBeGreaterThan(500);
  });

  it("places keys written after `?` or left empty, with and without values, as the library does", () => {
    // A pair as written at the mapping's indentation.
    const pair = fc.constantFrom(
      (_: string) => "? a",
      (_: string) => "? a  ",
      (_: string) => "? 'q'",
      (_: string) => "?",
      (_: string) => "? ",
      (_: string) => "? a # c",
      (indent: string) => `? a\n${indent}: b`,
      (indent: string) => `? a\n${indent}:`,
      (indent: string) => `? |\n${indent}  text`,
      (_: string) => "k: v",
      (_: string) => "k: 'v'",
      (_: string) => "k: v # c",
      (_: string) => "k:",
      (_: string) => ": v",
      (_: string) => ":",
      (_: string) => ": 'v' # c",
    );
    const between = fc.constantFrom("", "", "\n", "# c\n");
    const mapping = fc
      .record({
        place: fc.constantFrom("top", "nested", "item"),
        pairs: fc.array(fc.tuple(between, pair), { minLength: 1, maxLength: 6 }),
      })
      .map(({ place, pairs }) => {
        const indent = place === "top" ? "" : "  ";
        const lines = pairs.map(([gap, write], index) => {
          const lead = place === "item" && index === 0 ? "- " : indent;
          return `${gap}${lead}${write(indent)}\n`;
        });
        return `${place === "nested" ? "m:\n" : ""}${lines.join("")}`;
      });
    expect(fastReadings(mapping, 20261134, 1000)).toBeGreaterThan(300);
  });

  it("gives the library's tree for random values written in random styles, then edited", () => {
    const scalar = fc.oneof(
      fc.string(),
      fc.constantFrom("<<", "1.10", "0o17", "~", "True", "-", ":", "#", "a: b", "- x", "'", '"'),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        scalar,
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(fc.oneof(fc.string(), fc.constantFrom("<<", "1.10", "a b")), tie("value"), {
          maxKeys: 4,
        }),
      ),
    }));
    const style = fc.record({
      flowLevel: fc.integer({ min: -1, max: 3 }),
      defaultStringType: fc.constantFrom(
        "PLAIN",
        "QUOTE_DOUBLE",
        "QUOTE_SINGLE",
        "BLOCK_LITERAL",
        "BLOCK_FOLDED",
      ) as fc.Arbitrary<"PLAIN">,
      defaultKeyType: fc.constantFrom(null, "PLAIN", "QUOTE_DOUBLE") as fc.Arbitrary<null>,
      indent: fc.integer({ min: 1, max: 4 }),
      lineWidth: fc.constantFrom(0, 20, 80),
    });
    const edit = fc.record({
      at: fc.nat(),
      text: fc.constantFrom(
        "&a ",
        "*a",
        "<<: *a\n",
        " # c\n",
        "\n",
        "\r\n",
        ":",
        "- ",
        "? ",
        "|\n",
        ">-\n",
        "  ",
        "\t",
        "{",
        "]",
        ",",
        "'",
        '"',
        "\\",
        "---\n",
      ),
    });
    const edited = fc
      .tuple(value, style, fc.array(edit, { maxLength: 3 }))
      .map(([written, options, edits]) => {
        let text = stringify(written, options);
        for (const { at, text: inserted } of edits) {
          const where = at % (text.length + 1);
          text = text.slice(0, where) + inserted + text.slice(where);
        }
        return text;
      });
    expect(fastReadings(edited, 20261129, 3000)).toBeGreaterThan(1000);
  });
});
