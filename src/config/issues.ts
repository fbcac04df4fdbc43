import type * as z from "zod";
import { type ConfigError, type Origin, type Path, formatPath } from "./errors.js";
import { SECRET_KEYS } from "./interpolate.js";
import { type RawIssue, errorsNotKept, wordIssue } from "./raw-issues.js";
import type { SecretAt } from "./secret-paths.js";
import type { SourceFile } from "./source.js";

/** An issue as a schema raised it, or as zod worded it (inside a union's or a key's issue). */
type Issue = RawIssue | z.core.$ZodIssue;

/**
 * Turns zod's issues into positioned errors that say what was expected and what was found. Each
 * is placed now and worded when read: of a file's 500,000 problems the first 100 are listed, and
 * an error holds only its place, its issue and where that issue was found, not its words. An
 * issue standing for errors counted and not kept (`notKeptIssue`) makes none.
 */
export function issuesToErrors(
  issues: readonly Issue[],
  source: SourceFile,
  secretAt: SecretAt = isSecretKey,
): ConfigError[] {
  const errors: ConfigError[] = [];
  const wording = new Wording(source.value, secretAt);
  const place: Place = (path, at, issue, prefix, key) =>
    errors.push(new IssueError(source.locate(path, at), wording, issue, prefix, key));
  for (const issue of issues) if (errorsNotKept(issue) === 0) eachError(issue, NO_PREFIX, place);
  return errors;
}

/** The key paths of the errors `issue` makes, from where it was raised, as issuesToErrors places them. */
export function errorPaths(issue: Issue): Path[] {
  const paths: Path[] = [];
  eachError(issue, NO_PREFIX, (path) => paths.push(path));
  return paths;
}

const NO_PREFIX: Path = [];

/** Places one error: where, at its key or its value, of which issue found under which path. */
type Place = (path: Path, at: "key" | "value", issue: Issue, prefix: Path, key: number) => void;

/** Each error `issue` makes: one a key it does not know, those of the union branch that explains it. */
function eachError(issue: Issue, prefix: Path, place: Place): void {
  const path = pathOf(issue, prefix);
  switch (issue.code) {
    case "unrecognized_keys":
      issue.keys.forEach((key, index) => place([...path, key], "key", issue, prefix, index));
      return;
    case "invalid_key":
      place(path, "key", issue, prefix, -1);
      return;
    case "invalid_union": {
      const branch = explainingBranch(issue.errors);
      if (branch === undefined) place(path, "value", issue, prefix, -1);
      else for (const inner of branch) eachError(inner, path, place);
      return;
    }
    default:
      place(path, "value", issue, prefix, -1);
  }
}

/** Where an issue is: its path under the path of what it was found in. */
function pathOf(issue: Issue, prefix: Path): Path {
  return issue.path === undefined || issue.path.length === 0
    ? prefix
    : [...prefix, ...(issue.path as Path)];
}

/**
 * The alternative of a union whose issues explain the problem best: the first that got past the
 * type check; undefined when every alternative failed on the value's type itself (then one error
 * says what any of them expected).
 */
function explainingBranch(
  branches: ReadonlyArray<readonly z.core.$ZodIssue[]>,
): readonly z.core.$ZodIssue[] | undefined {
  const index = branches.findIndex((branch) => rootMismatch(branch) === undefined);
  return index < 0 ? undefined : branches[index];
}

/**
 * One error of an issue, placed; its path and message are worked out each time they are read. What
 * it words them from is private, so no copy or JSON of it carries the issue's input (a value that
 * may be a secret): the loader hands out plain copies (errors.ts, `listedErrors`).
 */
class IssueError implements ConfigError {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly #wording: Wording;
  readonly #issue: Issue;
  readonly #prefix: Path;
  /** Which of an unrecognized_keys issue's keys; -1 for other issues. */
  readonly #key: number;

  constructor(origin: Origin, wording: Wording, issue: Issue, prefix: Path, key: number) {
    this.file = origin.file;
    this.line = origin.line;
    this.column = origin.column;
    this.#wording = wording;
    this.#issue = issue;
    this.#prefix = prefix;
    this.#key = key;
  }

  get path(): string {
    const path = pathOf(this.#issue, this.#prefix);
    if (this.#issue.code !== "unrecognized_keys") return formatPath(path);
    return formatPath([...path, this.#issue.keys[this.#key]!]);
  }

  get message(): string {
    return this.#wording.message(this.#issue, this.#prefix, this.#key);
  }
}

/** How the errors of one file's issues are worded: what was expected and what was found. */
class Wording {
  /** An unrecognized_keys issue's message, a line a key, split once. */
  readonly #lines = new WeakMap<Issue, string[]>();

  constructor(
    private readonly value: unknown,
    private readonly secretAt: SecretAt,
  ) {}

  message(issue: Issue, prefix: Path, key: number): string {
    const path = pathOf(issue, prefix);
    const found = valueAt(this.value, path);
    /** A secret or a token is never quoted. */
    const sensitive = this.secretAt(path) || path[path.length - 1] === "token";
    const mismatch = (expected: string) =>
      found === undefined
        ? `required key is missing (expected ${expected})`
        : `expected ${expected}, found ${describeFound(found, sensitive)}`;
    switch (issue.code) {
      case "unrecognized_keys": {
        let lines = this.#lines.get(issue);
        if (lines === undefined) {
          lines = messageOf(issue).split("\n");
          this.#lines.set(issue, lines);
        }
        return lines[key] ?? lines.join("\n");
      }
      case "invalid_key":
        return issue.issues[0]?.message ?? "invalid key";
      case "invalid_union":
        return mismatch(issue.errors.map((branch) => rootMismatch(branch)).join(" or "));
      case "invalid_type":
        return issue.expected === "never"
          ? messageOf(issue)
          : mismatch(expectedType(issue.expected));
      case "invalid_value": {
        // A schema that explains why it refuses a value gives its own message; zod's own
        // ("Invalid option: …") gives way to what was expected and what was found.
        const message = messageOf(issue);
        return message.startsWith("Invalid ") ? mismatch(listValues(issue.values)) : message;
      }
      case "invalid_format":
        return sensitive
          ? messageOf(issue)
          : `${messageOf(issue)}, found ${describeFound(found, sensitive)}`;
      case "too_big": {
        const limit = issue.inclusive === false ? "less than" : "at most";
        return `expected ${limit} ${bound(issue.maximum, issue.origin)}, found ${describeSize(found, sensitive)}`;
      }
      case "too_small": {
        const limit = issue.inclusive === false ? "more than" : "at least";
        return `expected ${limit} ${bound(issue.minimum, issue.origin)}, found ${describeSize(found, sensitive)}`;
      }
      default:
        return messageOf(issue);
    }
  }
}

/** An issue's message: its own, or zod's words for it. */
function messageOf(issue: Issue): string {
  return issue.message ?? wordIssue(issue as RawIssue).message;
}

/** What an alternative of a union wanted, when it failed on the value's type itself. */
function rootMismatch(branch: readonly z.core.$ZodIssue[]): string | undefined {
  const [only] = branch;
  if (branch.length !== 1 || only === undefined || only.path.length > 0) return undefined;
  if (only.code === "invalid_type") return expectedType(only.expected);
  if (only.code === "invalid_value") return listValues(only.values);
  return undefined;
}

function expectedType(expected: string): string {
  switch (expected) {
    case "object":
    case "record":
      return "a mapping";
    case "array":
      return "a list";
    case "boolean":
      return "true or false";
    case "int":
      return "a whole number";
    case "null":
      return "null";
    default:
      return `a ${expected}`;
  }
}

function listValues(values: readonly unknown[]): string {
  const shown = values.map((value) => JSON.stringify(value));
  return shown.length === 1 ? shown[0]! : `one of ${shown.join(", ")}`;
}

function bound(limit: number | bigint, origin: string): string {
  if (origin === "array") return `${limit} ${limit === 1 ? "item" : "items"}`;
  if (origin === "string") return `${limit} ${limit === 1 ? "character" : "characters"}`;
  return String(limit);
}

function isSecretKey(path: Path): boolean {
  const key = path[path.length - 1];
  return typeof key === "string" && SECRET_KEYS.has(key);
}

/** Describes a found value; never quotes a sensitive one. */
function describeFound(value: unknown, sensitive: boolean): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "undefined":
      return "nothing";
    case "string":
      return sensitive ? "a string" : `the string ${quote(value)}`;
    case "number":
      return sensitive ? "a number" : `the number ${value}`;
    case "boolean":
      return String(value);
    case "object":
      return "a mapping";
    default:
      return typeof value;
  }
}

function describeSize(value: unknown, sensitive: boolean): string {
  if (Array.isArray(value)) return value.length === 0 ? "none" : `${value.length}`;
  if (typeof value === "string" && value.length === 0) return "an empty string";
  return describeFound(value, sensitive);
}

function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

export function valueAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = Object.hasOwn(node, segment)
      ? (node as Record<string | number, unknown>)[segment]
      : undefined;
  }
  return node;
}
