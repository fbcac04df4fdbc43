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

/** Orders errors by position and drops exact repeats (a rule checked per layer and after merging). */
export function sortErrors(errors: ConfigError[], fileOrder: readonly string[]): ConfigError[] {
  const rank = new Map(fileOrder.map((file, index) => [file, index]));
  const seen = new Set<string>();
  const unique = errors.filter((error) => {
    const key = formatConfigError(error);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort(
    (a, b) =>
      (rank.get(a.file) ?? Number.MAX_SAFE_INTEGER) -
        (rank.get(b.file) ?? Number.MAX_SAFE_INTEGER) ||
      a.line - b.line ||
      a.column - b.column,
  );
}
