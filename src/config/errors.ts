import { thousands } from "../core/thousands.js";

/** Where a value was written: 1-based line and column in a file, as shown to the user. */
export interface Origin {
  file: string;
  line: number;
  column: number;
}

/** One problem in the desired state, positioned so a person can go and fix it. */
export interface ConfigError {
  file: string;
  line: number;
  column: number;
  /** The key path, e.g. `repositories[0].branch_protection.main`; empty for file-level problems. */
  path: string;
  message: string;
}

export type Path = ReadonlyArray<string | number>;

const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/** Renders a key path the way the errors print it: `a.b[0].c`, quoting keys that are not plain words. */
export function formatPath(path: Path): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** The segments of a key path as `formatPath` prints it: `a.b[0]["x y"]` → a, b, 0, "x y". */
export function parsePath(text: string): Array<string | number> {
  const segments: Array<string | number> = [];
  for (const match of text.matchAll(/\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|([A-Za-z0-9_-]+)/g)) {
    if (match[1] !== undefined) segments.push(Number(match[1]));
    else if (match[2] !== undefined) segments.push(JSON.parse(match[2]) as string);
    else segments.push(match[3]!);
  }
  return segments;
}

/** `file:line:col: key.path: message` (the path part is left out for file-level problems). */
export function formatConfigError(error: ConfigError): string {
  const where = `${error.file}:${error.line}:${error.column}`;
  return error.path === ""
    ? `${where}: ${error.message}`
    : `${where}: ${error.path}: ${error.message}`;
}

/** A plain copy: what the loader hands out, to print, to compare or to turn into JSON. */
function plainError(error: ConfigError): ConfigError {
  return {
    file: error.file,
    line: error.line,
    column: error.column,
    path: error.path,
    message: error.message,
  };
}

export function errorAt(origin: Origin, path: Path, message: string): ConfigError {
  return {
    file: origin.file,
    line: origin.line,
    column: origin.column,
    path: formatPath(path),
    message,
  };
}

export function formatOrigin(origin: Origin): string {
  return `${origin.file}:${origin.line}`;
}

/**
 * How many of a load's errors are listed in full; the rest are counted in one more line. A file
 * built to fail (a hundred thousand unknown keys) would otherwise print a hundred thousand lines,
 * and the first ones are what to fix first anyway.
 */
export const ERRORS_LISTED = 100;

/**
 * The errors to show, as plain objects: all of them when there are at most ERRORS_LISTED + 1, else
 * the first ERRORS_LISTED in full and then one line, at the position of the first one left out,
 * with no key path, saying how many there are in all and how many are not listed. `notKept` more
 * were counted and not kept (a long list's, raw-issues.ts `notKeptIssue`), all placed after the
 * first ERRORS_LISTED + 1 of `sorted`.
 */
export function listedErrors(sorted: readonly ConfigError[], notKept = 0): ConfigError[] {
  const total = sorted.length + notKept;
  if (total <= ERRORS_LISTED + 1) return sorted.map(plainError);
  const next = sorted[ERRORS_LISTED];
  if (next === undefined) {
    throw new Error(`${notKept} errors counted where only ${sorted.length} were kept`);
  }
  return [
    ...sorted.slice(0, ERRORS_LISTED).map(plainError),
    {
      file: next.file,
      line: next.line,
      column: next.column,
      path: "",
      message: `${thousands(total)} problems in all; the ${thousands(total - ERRORS_LISTED)} from here on are not listed: fix the ${ERRORS_LISTED} above first`,
    },
  ];
}

/**
 * Orders errors by position and drops exact repeats (a rule checked per layer and after merging).
 * Repeats share a position, so they are looked for among the errors at one place once sorted: a
 * file with a problem on each of 500,000 lines made a string of every error to find them.
 */
export function sortErrors(errors: ConfigError[], fileOrder: readonly string[]): ConfigError[] {
  // Stable: errors at one place keep the order they were found in.
  const byPlace = (a: ConfigError, b: ConfigError) => a.line - b.line || a.column - b.column;
  let ordered: ConfigError[];
  if (errors.every((error) => error.file === errors[0]!.file)) {
    // One file's errors (most loads that fail): no rank to look up.
    ordered = [...errors].sort(byPlace);
  } else {
    const rank = new Map(fileOrder.map((file, index) => [file, index]));
    ordered = errors
      .map((error) => ({ error, rank: rank.get(error.file) ?? Number.MAX_SAFE_INTEGER }))
      .sort((a, b) => a.rank - b.rank || byPlace(a.error, b.error))
      .map(({ error }) => error);
  }
  const sorted: ConfigError[] = [];
  let placeStart = 0;
  for (const error of ordered) {
    const last = sorted[sorted.length - 1];
    if (last === undefined || !samePlace(last, error)) placeStart = sorted.length;
    else if (sorted.slice(placeStart).some((kept) => sameText(kept, error))) continue;
    sorted.push(error);
  }
  return sorted;
}

function samePlace(a: ConfigError, b: ConfigError): boolean {
  return a.file === b.file && a.line === b.line && a.column === b.column;
}

/** Repeats are errors that print the same. */
function sameText(a: ConfigError, b: ConfigError): boolean {
  return formatConfigError(a) === formatConfigError(b);
}
