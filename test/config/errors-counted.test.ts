import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as z from "zod";
import {
  ERRORS_LISTED,
  type Origin,
  formatConfigError,
  listedErrors,
  sortErrors,
} from "../../src/config/errors.js";
import { distinctErrors } from "../../src/config/fields.js";
import { interpolate } from "../../src/config/interpolate.js";
import { issuesToErrors } from "../../src/config/issues.js";
import { loadConfig } from "../../src/config/load.js";
import { errorsNotKept, rawIssues } from "../../src/config/raw-issues.js";
import { fileSchema } from "../../src/config/schema.js";
import { plainMatcher, secretMatcher } from "../../src/config/secret-paths.js";
import { parseSource } from "../../src/config/source.js";
import { configSpec } from "../../src/resources/index.js";
import { runs } from "../kinds/harness.js";

// Past the errors it lists, the loader counts a long list's errors without keeping them
// (listCheckedByWrittenKeys, `counting`). What it prints and how many problems it counts must be
// exactly what keeping every error gives: the reference below is the loader's way before it
// counted (every issue raised, every error placed and sorted).

const FILE = "forgeplan.yaml";
const secretAt = secretMatcher(configSpec);
const plainAt = plainMatcher(configSpec);

/**
 * Every error kept, sorted and listed: the printed lines and how many problems there are. As
 * `validate` loads, an unset variable is no error, and no error is reported at a value that
 * refers to one.
 */
function keptEverything(text: string): { lines: string[]; problems: number } {
  const parsed = parseSource(FILE, text);
  if (!parsed.ok) throw new Error("a generated file must parse");
  const { value, problems, unresolved } = interpolate(
    parsed.source.value,
    {},
    { allowUnset: true, secretAt, plainAt },
  );
  expect(problems).toEqual([]);
  const place = (at: Origin) => `${at.line}:${at.column}`;
  const unknown = new Set(unresolved.map((path) => place(parsed.source.locate(path))));
  const source = { ...parsed.source, value };
  const issues = rawIssues(fileSchema(configSpec, "check"), value);
  expect(issues.some((issue) => errorsNotKept(issue) > 0)).toBe(false);
  const errors = issuesToErrors(issues, source, secretAt).filter(
    (error) => !unknown.has(place(error)),
  );
  const sorted = sortErrors([...parsed.problems, ...errors], [FILE]);
  return { lines: listedErrors(sorted).map(formatConfigError), problems: sorted.length };
}

function loaded(text: string): { lines: string[]; problems: number } | undefined {
  const result = loadConfig([FILE], {
    spec: configSpec,
    cwd: "/",
    env: {},
    allowUnset: true,
    readFile: () => text,
  });
  if (result.ok) return undefined;
  return { lines: result.errors.map(formatConfigError), problems: result.problems };
}

/** Whether the loader's check of `text` counted errors it did not keep. */
function counted(text: string): boolean {
  const parsed = parseSource(FILE, text);
  if (!parsed.ok) return false;
  const issues = rawIssues(fileSchema(configSpec, "count"), parsed.source.value);
  return issues.some((issue) => errorsNotKept(issue) > 0);
}

// Entries with none, one or two errors, block and flow, on one line or two; `*bad` refers to an
// anchor written before the list, where its errors are placed.
const REPOSITORY_ENTRIES = [
  "  - ? a",
  "  - ",
  "  - ~",
  "  - name: acme/api",
  "  - {name: acme/r, settings: {has_wiki: maybe}}",
  "  - {nmae: acme/x}",
  "  - name: 5",
  "  - [1]",
  "  - {name: acme/y, settings: {has_wik: true, has_isues: false}}",
  "  - name: acme/z\n    settigns: {}",
  "  - name: acme/w\n    branch_protection: {main: {enforce_admins: yes}}",
];
const ALIASED_ENTRIES = ["  - *bad", "  - {name: acme/v, <<: *bad}"];
/** An error at a value that refers to an unset variable: not reported. */
const UNSET_ENTRY = '  - {name: acme/u, settings: {has_wiki: "${UNSET}"}}';
const PROJECT_ENTRIES = ["  - {projekt: 1}", "  - project: acme/api", "  - ~", "  - project: no"];

const file = fc.record({
  defaults: fc.constantFrom("", "defaults: {has_wik: true}", "defaults: {settings: 5}"),
  aliased: fc.boolean(),
  unset: fc.boolean(),
  repositories: fc.array(fc.nat(REPOSITORY_ENTRIES.length + ALIASED_ENTRIES.length), {
    maxLength: 320,
    size: "max",
  }),
  projects: fc.array(fc.nat(PROJECT_ENTRIES.length - 1), { maxLength: 160, size: "max" }),
  after: fc.constantFrom("", "removal_limit: nope"),
});

function text(generated: typeof file extends fc.Arbitrary<infer T> ? T : never): string {
  const entries = [
    ...REPOSITORY_ENTRIES,
    ...(generated.aliased ? ALIASED_ENTRIES : []),
    ...(generated.unset ? [UNSET_ENTRY] : []),
  ];
  const lines = ["version: 1", generated.defaults];
  if (generated.aliased) lines.push("profiles:", "  bad: &bad {bogus: 1}");
  lines.push("repositories:");
  for (const pick of generated.repositories) lines.push(entries[pick % entries.length]!);
  lines.push("projects:");
  for (const pick of generated.projects) lines.push(PROJECT_ENTRIES[pick]!);
  lines.push(generated.after, "");
  return lines.join("\n");
}

describe("errors counted past those listed", () => {
  it("print and count what keeping every error prints and counts", () => {
    let countedFiles = 0;
    fc.assert(
      fc.property(file, (generated) => {
        const written = text(generated);
        const reference = keptEverything(written);
        if (reference.problems === 0) return;
        expect(loaded(written)).toEqual(reference);
        if (counted(written)) countedFiles++;
      }),
      runs(20261129, 80),
    );
    // The case that matters ran: lists of more errors than are listed.
    expect(countedFiles).toBeGreaterThan(10);
  });

  it("count a file of 10,000 failing entries in one line after the first 100", () => {
    const written = ["version: 1", "repositories:", ...Array(10_000).fill("  - ? a"), ""].join(
      "\n",
    );
    const result = loaded(written)!;
    expect(result.problems).toBe(20_000);
    expect(result.lines).toHaveLength(ERRORS_LISTED + 1);
    expect(result.lines.at(-1)).toBe(
      `${FILE}:53:5: 20,000 problems in all; the 19,900 from here on are not listed: fix the 100 above first`,
    );
    expect(result).toEqual(keptEverything(written));
  });

  it("keep an entry two of whose errors are at one key path", () => {
    const at = (path: Array<string | number>, message: string): z.core.$ZodRawIssue => ({
      code: "custom",
      input: undefined,
      path,
      message,
    });
    expect(distinctErrors([at(["name"], "one"), at(["settings"], "two")], 0)).toBe(2);
    expect(distinctErrors([at(["name"], "one"), at(["name"], "two")], 0)).toBeUndefined();
    // Issues before `start` are another entry's.
    expect(distinctErrors([at(["name"], "one"), at(["name"], "two")], 1)).toBe(1);
    // One issue: an error a key it does not know, or one error.
    const unknownKeys: z.core.$ZodRawIssue = {
      code: "unrecognized_keys",
      keys: ["a", "b", "c"],
      input: {},
    };
    expect(distinctErrors([unknownKeys], 0)).toBe(3);
    expect(distinctErrors([at(["name"], "one")], 0)).toBe(1);
    // Past the paths compared in pairs, the same answer.
    const many = Array.from({ length: 20 }, (_, index) => at(["key", index], "k"));
    expect(distinctErrors(many, 0)).toBe(20);
    expect(distinctErrors([...many, at(["key", 3], "again")], 0)).toBeUndefined();
  });
});
