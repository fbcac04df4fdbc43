import type * as z from "zod";
import { type ConfigError, type Path, errorWordedWhenRead } from "./errors.js";
import { SECRET_KEYS } from "./interpolate.js";
import { type RawIssue, wordIssue } from "./raw-issues.js";
import type { SecretAt } from "./secret-paths.js";
import type { SourceFile } from "./source.js";

/** An issue as a schema raised it, or as zod worded it (inside a union's or a key's issue). */
type Issue = RawIssue | z.core.$ZodIssue;

/**
 * Turns zod's issues into positioned errors that say what was expected and what was found. Each
 * is placed now and worded when read (errors.ts, `errorWordedWhenRead`): of a file's 500,000
 * problems, the first 100 are.
 */
export function issuesToErrors(
  issues: readonly Issue[],
  source: SourceFile,
  secretAt: SecretAt = isSecretKey,
): ConfigError[] {
  const errors: ConfigError[] = [];
  const add = (path: Path, message: () => string, at: "key" | "value" = "value") =>
    errors.push(errorWordedWhenRead(source.locate(path, at), path, message));
  const messageOf = (issue: Issue) => issue.message ?? wordIssue(issue as RawIssue).message;

  /** A secret or a token is never quoted. */
  const isSensitive = (path: Path) => secretAt(path) || path[path.length - 1] === "token";

  const visit = (issue: Issue, prefix: Path): void => {
    const path = issue.path === undefined ? prefix : [...prefix, ...(issue.path as Path)];
    const found = valueAt(source.value, path);
    const mismatch = (expected: () => string) =>
      add(path, () =>
        found === undefined
          ? `required key is missing (expected ${expected()})`
          : `expected ${expected()}, found ${describeFound(found, isSensitive(path))}`,
      );
    switch (issue.code) {
      case "unrecognized_keys": {
        // One message for all of an issue's keys, a line each: worded once, when one is read.
        let lines: string[] | undefined;
        const line = (index: number) => {
          lines ??= messageOf(issue).split("\n");
          return lines[index] ?? lines.join("\n");
        };
        issue.keys.forEach((key, index) => add([...path, key], () => line(index), "key"));
        return;
      }
      case "invalid_key":
        add(path, () => issue.issues[0]?.message ?? "invalid key", "key");
        return;
      case "invalid_union": {
        const alternatives = issue.errors.map((branch) => rootMismatch(branch));
        if (alternatives.every((expected) => expected !== undefined)) {
          mismatch(() => alternatives.join(" or "));
          return;
        }
        // The first alternative that got past the type check explains the problem best.
        const index = alternatives.findIndex((expected) => expected === undefined);
        for (const inner of issue.errors[index] ?? []) visit(inner, path);
        return;
      }
      case "invalid_type":
        if (issue.expected === "never") add(path, () => messageOf(issue));
        else mismatch(() => expectedType(issue.expected));
        return;
      case "invalid_value": {
        // A schema that explains why it refuses a value gives its own message; zod's own
        // ("Invalid option: …") gives way to what was expected and what was found.
        const message = messageOf(issue);
        if (message.startsWith("Invalid ")) mismatch(() => listValues(issue.values));
        else add(path, () => message);
        return;
      }
      case "invalid_format":
        add(path, () =>
          isSensitive(path)
            ? messageOf(issue)
            : `${messageOf(issue)}, found ${describeFound(found, isSensitive(path))}`,
        );
        return;
      case "too_big": {
        const limit = issue.inclusive === false ? "less than" : "at most";
        add(
          path,
          () =>
            `expected ${limit} ${bound(issue.maximum, issue.origin)}, found ${describeSize(found, isSensitive(path))}`,
        );
        return;
      }
      case "too_small": {
        const limit = issue.inclusive === false ? "more than" : "at least";
        add(
          path,
          () =>
            `expected ${limit} ${bound(issue.minimum, issue.origin)}, found ${describeSize(found, isSensitive(path))}`,
        );
        return;
      }
      default:
        add(path, () => messageOf(issue));
    }
  };
  for (const issue of issues) visit(issue, []);
  return errors;
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
