/**
 * Building blocks of the configuration schema, shared by the file's frame (src/config/schema.ts)
 * and by the resource kinds that contribute their own keys to it (src/resources/*). Every mapping is
 * closed (unknown keys are errors with a "did you mean"), and every field says what it is, since the
 * descriptions become the JSON Schema's hover help.
 */
import * as z from "zod";
import type { Secret } from "../core/secret.js";
import { ENV_REFERENCE } from "./interpolate.js";
import { ERRORS_LISTED, type Path } from "./errors.js";
import { errorPaths } from "./issues.js";
import { PARSE_CONTEXT, notKeptIssue } from "./raw-issues.js";
import type { TargetType } from "./spec.js";
import { unknownNameHint } from "./suggest.js";

/**
 * A mapping that refuses keys it does not know. The unknown-key message carries one line per key,
 * each with a "did you mean" drawn from the known keys (the issue mapper splits them by line), or
 * what `explain` says of a key the mapping leaves out on purpose.
 */
export function closed<T extends z.ZodRawShape>(
  shape: T,
  explain: (key: string) => string | undefined = () => undefined,
  // A key kept only to be refused with its reason (a retired field) is no key to suggest.
  known: readonly string[] = Object.keys(shape).filter((key) => !refusedKey(shape[key]!)),
) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? issue.keys
            .map((key, index) =>
              // Past the first ones a file's errors are counted, not listed (listedErrors lists
              // ERRORS_LISTED + 1 in full): a hint nobody reads is not worth working out for each
              // of 100,000 keys.
              index <= ERRORS_LISTED
                ? `unknown key ${JSON.stringify(key)}; ${explain(key) ?? unknownNameHint(key, known)}`
                : `unknown key ${JSON.stringify(key)}`,
            )
            .join("\n")
        : undefined,
  });
}

/**
 * A set of written keys is named by one character a key: its index in the shape below PASSED,
 * PASSED + its index for a key whose value has passed its schema before.
 */
const PASSED = 0x100;
/** Past this many sets of written keys, an entry is checked against its whole mapping. */
const KEY_SETS_KEPT = 256;

/**
 * A list that may hold 100,000 entries (`repositories`, `projects`), checked as
 * `z.array(closed(shape).superRefine(refine))` would check it (the same issues, paths, messages
 * and suggestions) but each entry against a mapping of only the keys it writes and the required
 * ones. `refine` looks at an entry only when it writes one of `refinedKeys`, and runs only then.
 * The entries are run in one loop of this list's check, not each through zod's array and a check
 * of its own (a quarter of checking 250,000 entries that fail was that machinery).
 *
 * Why: zod's compiled object parser gives every key of its shape a result and an issue list,
 * written or not. A repository entry has 22 keys and most entries write one or two, so checking
 * each against the whole mapping was about a quarter of what loading a 2 MB file of entries
 * allocated (190 of 737 MB, HeapProfiler sampling; docs/scale.md), and its collection much of the
 * time past parsing (issue #35).
 *
 * Each entry's mapping is run inside this list's check, so its issues stay raw, as the file's are
 * (raw-issues.ts: worded only when listed); a parse of its own per entry would word every issue
 * and build an Error per failing entry. `_zod.run` is the entry zod's own containers call (zod
 * 4.6); test/config/written-keys.test.ts fails if a zod release changes what it gives. Only the
 * loader checks with this: the JSON Schema is drawn from the whole mapping.
 *
 * `counting`: once the list's entries have made more errors than are listed (ERRORS_LISTED + 1),
 * a later entry's issues are counted and dropped, and one `notKeptIssue` stands for them all.
 * Each is an error the loader would have sorted past those listed and only counted: an entry's
 * errors are placed within its own text, after the earlier entries', as long as the file holds no
 * alias (whose errors are placed at its anchor), and none is dropped for a value that refers to an
 * unset variable (`validate`) — the loader counts only then (load.ts). Entries of 100,000
 * errors otherwise kept as many issues and errors alive to print 100 (garbage collection was a
 * third of validating 2 MB of `- ? a`, issue #35). An entry two of whose errors share a key path
 * (which may print alike: sortErrors keeps one) is kept, and its errors are not counted as kept.
 */
export function listCheckedByWrittenKeys<T extends z.ZodRawShape>(
  shape: T,
  refine: (entry: z.output<z.ZodObject<T>>, context: z.core.$RefinementCtx) => void,
  refinedKeys: ReadonlyArray<keyof T & string>,
  counting: boolean,
): z.ZodType {
  const keys = Object.keys(shape);
  if (keys.length >= PASSED) throw new Error(`a list entry of ${keys.length} keys`);
  const known = keys.filter((key) => !refusedKey(shape[key]!));
  // A key whose schema takes no value when it is left out is left out when it is not written.
  const required = keys.filter((key) => !(shape[key] instanceof z.ZodOptional));
  // The keys whose values are checked on their own: neither required nor refined as a whole.
  const alone = keys.flatMap((key, index) =>
    required.includes(key) || refinedKeys.includes(key) ? [] : [index],
  );
  // The mappings and lists each such key's schema has passed: one anchor merged into 50,000
  // entries is one value (tree-convert.ts, #shared), checked once.
  const passed = keys.map(() => new WeakSet<object>());
  const whole = closed(shape, undefined, known).superRefine(refine);
  const bySet = new Map<string, z.ZodType>();
  const build = (id: string): z.ZodType => {
    const picked: Record<string, z.core.$ZodType> = {};
    for (const char of id) {
      const code = char.charCodeAt(0);
      const key = keys[code % PASSED]!;
      picked[key] = code >= PASSED ? z.unknown() : shape[key]!;
    }
    const mapping = closed(picked, undefined, known);
    if (!refinedKeys.some((key) => Object.hasOwn(picked, key))) return mapping;
    // Its output is the whole mapping's without keys that are not written, all optional ones.
    return mapping.superRefine(refine as (entry: unknown, context: z.core.$RefinementCtx) => void);
  };
  const schemaFor = (input: Record<string, unknown>): z.ZodType => {
    // One character a key, in the shape's order: the id of a set costs no array.
    let id = "";
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      if (!Object.hasOwn(input, key)) {
        if (required.includes(key)) id += String.fromCharCode(index);
        continue;
      }
      const value = input[key];
      const done = typeof value === "object" && value !== null && passed[index]!.has(value);
      id += String.fromCharCode(done ? PASSED + index : index);
    }
    let schema = bySet.get(id);
    if (schema === undefined) {
      if (bySet.size >= KEY_SETS_KEPT) return whole;
      schema = build(id);
      bySet.set(id, schema);
    }
    return schema;
  };
  const checkEntry = (input: unknown, issues: z.core.$ZodRawIssue[]): void => {
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      // The issue zod's object schema raises for what is not a mapping (zod 4.6, core/schemas.js),
      // without running it: a file of 400,000 empty entries has one for each.
      issues.push({ expected: "object", code: "invalid_type", input, inst: whole });
      return;
    }
    const entry = input as Record<string, unknown>;
    const checked = schemaFor(entry)._zod.run(
      { value: entry, issues: [] },
      PARSE_CONTEXT,
    ) as z.core.ParsePayload;
    for (const issue of checked.issues) issues.push(issue);
    if (checked.issues.length > 0) return;
    for (const index of alone) {
      const value = entry[keys[index]!];
      if (typeof value === "object" && value !== null) passed[index]!.add(value);
    }
  };
  // What is not a list is refused as zod's array refuses it.
  const list = z.array(z.unknown());
  return z.unknown().check((payload) => {
    const input = payload.value;
    if (!Array.isArray(input)) {
      const checked = list._zod.run({ value: input, issues: [] }, PARSE_CONTEXT);
      for (const issue of (checked as z.core.ParsePayload).issues) payload.issues.push(issue);
      return;
    }
    const issues = payload.issues as z.core.$ZodRawIssue[];
    /** Errors kept that cannot repeat one another; errors counted and dropped. */
    let kept = 0;
    let counted = 0;
    for (let index = 0; index < input.length; index++) {
      const start = issues.length;
      checkEntry(input[index], issues);
      if (counting && issues.length > start) {
        const errors = distinctErrors(issues, start);
        if (errors !== undefined && kept > ERRORS_LISTED) {
          counted += errors;
          issues.length = start;
          continue;
        }
        kept += errors ?? 0;
      }
      // Each issue's path starts at its entry's index, as zod's array puts it (prefixIssues).
      for (let at = start; at < issues.length; at++) {
        const issue = issues[at] as { path?: PropertyKey[] };
        (issue.path ??= []).unshift(index);
      }
    }
    if (counted > 0) issues.push(notKeptIssue(counted));
  });
}

/**
 * How many errors the issues from `start` on make, or undefined when two of them are at one key
 * path (errors at different paths never print alike: the path is part of what prints).
 */
export function distinctErrors(
  issues: readonly z.core.$ZodRawIssue[],
  start: number,
): number | undefined {
  if (issues.length - start === 1) {
    // One issue's errors are at different paths, but for a union's, drawn from its branches: an
    // entry with 76,920 unknown keys is not written out twice.
    const only = issues[start]!;
    if (only.code === "unrecognized_keys") return only.keys.length;
    if (only.code !== "invalid_union") return 1;
  }
  const paths: Path[] = [];
  for (let at = start; at < issues.length; at++) {
    for (const path of errorPaths(issues[at]!)) paths.push(path);
  }
  if (paths.length <= SCANNED_PATHS) {
    for (let one = 0; one < paths.length; one++) {
      for (let other = one + 1; other < paths.length; other++) {
        if (samePath(paths[one]!, paths[other]!)) return undefined;
      }
    }
    return paths.length;
  }
  const seen = new Set(paths.map((path) => JSON.stringify(path)));
  return seen.size === paths.length ? paths.length : undefined;
}

/** Up to this many paths are compared in pairs rather than written out. */
const SCANNED_PATHS = 8;

function samePath(one: Path, other: Path): boolean {
  return one.length === other.length && one.every((segment, index) => segment === other[index]);
}

/** A key whose schema takes no value: present only to refuse it with a reason (`z.never`). */
function refusedKey(schema: z.core.$ZodType): boolean {
  const inner = schema instanceof z.ZodOptional ? schema.unwrap() : schema;
  return inner instanceof z.ZodNever;
}

/** `null` is a value of its own here: "must be absent / disabled", unlike leaving the key out. */
export function orNull<T extends z.ZodType>(schema: T) {
  return z.union([schema, z.null()]);
}

const OWNER = "[A-Za-z0-9][A-Za-z0-9-]*";
const REPOSITORY = "[A-Za-z0-9._-]+";
const REPOSITORY_GLOB = "[A-Za-z0-9._*?\\[\\]!-]+";
const PLANNING_PATH = "[A-Za-z0-9_.][A-Za-z0-9_.-]*";
const PLANNING_GLOB = "[A-Za-z0-9_.*?\\[\\]!-]+";

export const OWNER_NAME = new RegExp(`^${OWNER}$`);
export const REPOSITORY_NAME = new RegExp(`^${OWNER}/${REPOSITORY}$`);
export const REPOSITORY_SELECTOR = new RegExp(`^${OWNER}/${REPOSITORY_GLOB}$`);
/**
 * A custom property name as GitHub allows it ("Names: a-z, A-Z, 0-9, _, -, $, #", at most 75
 * characters: docs.github.com, "Managing custom properties for repositories in your organization").
 */
/** A GitLab project's full path: a group, its subgroups, the project (`acme/platform/api`). */
export const PROJECT_PATH = new RegExp(`^${PLANNING_PATH}(/${PLANNING_PATH})+$`);
/**
 * A project's full path, or a glob over the projects of a group named literally first
 * (`acme/*`, `acme/**`, `acme/platform/svc-*`).
 */
export const PROJECT_SELECTOR = new RegExp(`^${PLANNING_PATH}(/${PLANNING_GLOB})+$`);
/** A GitLab group's full path (`acme`, `acme/platform`). */
export const GROUP_PATH = new RegExp(`^${PLANNING_PATH}(/${PLANNING_PATH})*$`);

export const PROPERTY_NAME = /^[A-Za-z0-9_$#-]{1,75}$/;

export const name = (what: string) => z.string().min(1).describe(what);
export const nameList = (what: string) => z.array(name(what));

/**
 * A secret reference: the schema checks it as written, exactly `${NAME}`, and the loader then puts a
 * Secret in its place (wrapSecrets, ./secrets.ts), which is what a kind is given. Its type says so
 * — written as text, received as a Secret — so that a kind's value type, its schema's output, is
 * what the kind receives; the schema itself never makes the Secret, as the file's values reach the
 * kinds as written.
 */
export function secretReference(what: string): z.ZodType<Secret, string> {
  const written = z
    .string()
    .regex(ENV_REFERENCE, {
      error: "literal secrets are refused: write ${NAME} and set the environment variable NAME",
    })
    .describe(
      `${what}, as \${NAME}: read from the environment variable NAME, never written in the file.`,
    );
  // The one place a value's type is stated rather than inferred: see above.
  return written as unknown as z.ZodType<Secret, string>;
}

export const httpUrl = (example: string) =>
  z.url({ protocol: /^https?$/, error: `expected an http(s) URL such as ${example}` });

export const positiveId = (what: string) => z.int().positive().describe(what);

/** A planning-side project or group: its numeric id or its full path (a project's has a namespace). */
export const pathOrId = (what: string, example: string, namespaced: boolean) =>
  z
    .union([
      z.int().positive(),
      z
        .string()
        .regex(new RegExp(`^${PLANNING_PATH}(/${PLANNING_PATH})${namespaced ? "+" : "*"}$`), {
          error: `expected a numeric id or a full path such as ${example}`,
        }),
    ])
    .describe(what);

export const targetName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, {
  error: "expected a name of letters, digits, '.', '_' and '-'",
});

export const targetReference = (family: TargetType) =>
  targetName
    .optional()
    .describe(
      `The ${FAMILY_NAMES[family]} target to use; optional when exactly one ${FAMILY_NAMES[family]} target exists.`,
    );

/** How messages name a family of targets. */
export const FAMILY_NAMES: Readonly<Record<TargetType, string>> = {
  github: "GitHub",
  gitlab: "GitLab",
};

export const UTC_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;
