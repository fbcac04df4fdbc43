import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from "node:fs";
import { join, resolve as resolvePath } from "node:path";
import type { Redactor } from "../core/redact.js";
import { type ConfigError, errorAt, listedErrors, sortErrors } from "./errors.js";
import { interpolate } from "./interpolate.js";
import { type InterpolatedField, maskInterpolated } from "./mask-values.js";
import { issuesToErrors } from "./issues.js";
import type { DesiredState } from "./model.js";
import { type ValidFile, resolve } from "./resolve.js";
import { type ConfigFile, fileSchema } from "./schema.js";
import { plainMatcher, secretMatcher } from "./secret-paths.js";
import { wrapSecrets } from "./secrets.js";
import { LIMITS } from "./limits.js";
import { parseSource, sizeMessage } from "./source.js";
import { errorsNotKept, rawIssues } from "./raw-issues.js";
import type { ConfigSpec } from "./spec.js";

export interface LoadOptions {
  /** The kinds' keys and sections (the registry's `configSpec`). */
  spec: ConfigSpec;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Reads a file (as bytes, so the loader can check the encoding, or as text); node's fs by default. */
  readFile?: (path: string) => string | Uint8Array;
  /**
   * Learns the run's sensitive values as they are read — secret references, every `${NAME}` not
   * marked public, the targets' tokens — also when the load fails, since its errors may quote them.
   */
  redactor?: Redactor;
  /**
   * Validate the shape only: a variable that is not set is no error, and a value that refers to one
   * is not checked (what it will be is not known), as `terraform validate` treats unknown values.
   */
  allowUnset?: boolean;
  /** Reads standard input, for the path `-`; file descriptor 0 by default. */
  readStdin?: () => string | Uint8Array;
}

export const DEFAULT_CONFIG = "forgeplan.yaml";

/** The path that names standard input (`-c -`), as most command-line tools take it. */
export const STDIN_PATH = "-";

/** How errors and `validate` name standard input. */
export const STDIN_NAME = "<stdin>";

export type LoadResult =
  | {
      ok: true;
      state: DesiredState;
      /** The environment variables the files refer to (`${NAME}`), in the order first referred to. */
      variables: string[];
    }
  | {
      ok: false;
      /**
       * The problems in file order: every one when there are at most ERRORS_LISTED + 1 (101),
       * else the first ERRORS_LISTED (100) and, last, one with an empty `path` counting them all
       * and the rest (`errors.length < problems` says so).
       */
      errors: ConfigError[];
      /** How many problems there are in all, listed or not. */
      problems: number;
    };

/**
 * Loads files and directories (a directory = its *.yaml / *.yml files in name order), in the order
 * given, into one desired state. Every problem of every file is reported; nothing throws.
 */
export function loadConfig(paths: readonly string[], options: LoadOptions): LoadResult {
  const errors: ConfigError[] = [];
  const files = expandPaths(paths.length > 0 ? paths : [DEFAULT_CONFIG], options.cwd, errors);
  const valid: ValidFile[] = [];
  const variables = new Set<string>();
  /** Positions of values that refer to unset variables (allowUnset): not checked. */
  const unknown = new Set<string>();
  const known = (found: ConfigError[]) =>
    unknown.size === 0 ? found : found.filter((error) => !unknown.has(positionKey(error)));
  const secretAt = secretMatcher(options.spec);
  const plainAt = plainMatcher(options.spec);
  const interpolated: InterpolatedField[] = [];
  const secretValues: string[] = [];
  const masked = (found: ConfigError[]) => maskInterpolated(found, interpolated, secretValues);
  /** Errors counted and not kept (schema.ts, SchemaUse `count`). */
  let notKept = 0;
  for (const file of files) {
    const content = read(file, options, errors);
    if (content === undefined) continue;
    const parsed = parseSource(file.display, content);
    if (!parsed.ok) {
      addAll(errors, parsed.errors);
      continue;
    }
    addAll(errors, parsed.problems);
    const { value, problems, sensitive, secrets, names, unresolved } = interpolate(
      parsed.source.value,
      options.env,
      { allowUnset: options.allowUnset === true, secretAt, plainAt },
    );
    for (const name of names) variables.add(name);
    for (const path of unresolved) unknown.add(positionKey(parsed.source.locate(path)));
    for (const secret of secrets) {
      options.redactor?.add(secret.value, secret.name);
      secretValues.push(secret.value);
    }
    for (const field of sensitive) {
      options.redactor?.addField(
        field.text,
        field.values.map(({ name, value: text }) => ({ value: text, source: name })),
      );
      interpolated.push({
        at: parsed.source.locate(field.path),
        text: field.text,
        values: field.values.map(({ value: text }) => text),
      });
    }
    const source = { ...parsed.source, value };
    for (const problem of problems)
      errors.push(errorAt(source.locate(problem.path), problem.path, problem.message));
    // Errors past those listed are counted, not kept, where each is placed where it is written
    // and none is dropped for referring to an unset variable (schema.ts, SchemaUse).
    const use = parsed.aliased || unresolved.length > 0 ? "check" : "count";
    const issues = rawIssues(fileSchema(options.spec, use), value);
    for (const issue of issues) notKept += errorsNotKept(issue);
    const invalid = issues.length === 0 ? [] : known(issuesToErrors(issues, source, secretAt));
    addAll(errors, invalid);
    if (invalid.length === 0 && problems.length === 0 && parsed.problems.length === 0) {
      valid.push({ source, data: wrapSecrets(value, options.env, secretAt) as ConfigFile });
    }
  }
  const order = files.map((file) => file.display);
  if (errors.length > 0) return failed(errors, order, masked, notKept);
  const resolved = resolve(valid, options.env, options.spec);
  for (const target of resolved.state.targets) {
    if (target.token) options.redactor?.add(target.token.reveal(), target.tokenEnv);
  }
  const problems = known(resolved.errors);
  if (problems.length > 0) return failed(problems, order, masked, 0);
  return { ok: true, state: resolved.state, variables: [...variables] };
}

/**
 * Appends one at a time: a file may have hundreds of thousands of problems (a duplicate key on
 * every line), and spreading them into one push() call puts each on the stack, past its size.
 */
function addAll<T>(list: T[], more: readonly T[]): void {
  for (const item of more) list.push(item);
}

/**
 * A failed load: its first errors in full and a count of the rest (`notKept` of them counted and
 * not kept), with how many there are. Only the errors listed are worded, so only they are masked:
 * a repeat (the same words at one place) says the same before masking as after, since one place
 * holds one interpolated value.
 */
function failed(
  errors: ConfigError[],
  order: readonly string[],
  masked: (listed: ConfigError[]) => ConfigError[],
  notKept: number,
): LoadResult {
  const sorted = sortErrors(errors, order);
  const listed = listedErrors(sorted, notKept);
  const problems = sorted.length + notKept;
  // The line counting the rest (last, when some are not listed) quotes no value of the file.
  const shown =
    listed.length < problems
      ? [...masked(listed.slice(0, -1)), listed[listed.length - 1]!]
      : masked(listed);
  return { ok: false, errors: shown, problems };
}

function positionKey(at: { file: string; line: number; column: number }): string {
  return `${at.file}:${at.line}:${at.column}`;
}

interface FileToLoad {
  /** As the user wrote it (joined with the name for directory members): how errors name the file. */
  display: string;
  absolute: string;
}

function expandPaths(paths: readonly string[], cwd: string, errors: ConfigError[]): FileToLoad[] {
  const files: FileToLoad[] = [];
  const seen = new Set<string>();
  const add = (display: string) => {
    const absolute = resolvePath(cwd, display);
    if (seen.has(absolute)) return;
    seen.add(absolute);
    files.push({ display, absolute });
  };
  for (const path of paths) {
    if (path === STDIN_PATH) {
      if (!seen.has(STDIN_PATH)) files.push({ display: STDIN_NAME, absolute: STDIN_PATH });
      seen.add(STDIN_PATH);
      continue;
    }
    const absolute = resolvePath(cwd, path);
    let directory = false;
    try {
      directory = statSync(absolute).isDirectory();
    } catch {
      // Not on disk: reading it reports the problem (or a custom reader serves it).
    }
    if (!directory) {
      add(path);
      continue;
    }
    const names = readdirSync(absolute)
      .filter((name) => /\.ya?ml$/i.test(name))
      .sort();
    if (names.length === 0) {
      errors.push(
        errorAt(
          { file: path, line: 1, column: 1 },
          [],
          "the directory holds no *.yaml or *.yml files",
        ),
      );
    }
    for (const name of names) add(join(path, name));
  }
  return files;
}

function read(
  file: FileToLoad,
  options: LoadOptions,
  errors: ConfigError[],
): string | Uint8Array | undefined {
  try {
    if (file.absolute === STDIN_PATH) return (options.readStdin ?? readStdinBounded)();
    return (options.readFile ?? readBounded)(file.absolute);
  } catch (error) {
    if (error instanceof FileTooLarge) {
      errors.push(errorAt({ file: file.display, line: 1, column: 1 }, [], error.message));
      return undefined;
    }
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "it is a directory"
          : code === "EACCES"
            ? "permission denied"
            : (error as Error).message.split("\n")[0];
    const hint = file.display === "forgeplan.yaml" ? " (create it, or name files with -c)" : "";
    errors.push(
      errorAt(
        { file: file.display, line: 1, column: 1 },
        [],
        `cannot read the file: ${reason}${hint}`,
      ),
    );
    return undefined;
  }
}

class FileTooLarge extends Error {}

/**
 * Reads standard input to its end, refusing it once it passes the size limit rather than holding
 * whatever is piped in. Blocking reads of descriptor 0, as `-c -` is read before anything else runs.
 */
function readStdinBounded(): Uint8Array {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(64 * 1024);
  let total = 0;
  for (;;) {
    const read = readSync(0, buffer, 0, buffer.length, null);
    if (read === 0) return Buffer.concat(chunks);
    total += read;
    if (total > LIMITS.maxBytes) {
      throw new FileTooLarge(
        `the input is larger than the ${LIMITS.maxBytes / (1024 * 1024)} MiB limit`,
      );
    }
    chunks.push(Buffer.from(buffer.subarray(0, read)));
  }
}

/** Reads a file, refusing (without reading it) one over the size limit. */
function readBounded(path: string): Uint8Array {
  const descriptor = openSync(path, "r");
  try {
    const size = fstatSync(descriptor).size;
    if (size > LIMITS.maxBytes) throw new FileTooLarge(sizeMessage(size));
    return readFileSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
