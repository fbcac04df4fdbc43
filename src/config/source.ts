import { Composer, type Document, LineCounter, Parser } from "yaml";
import type { CST } from "yaml";
import { type ConfigError, type Origin, type Path, errorAt } from "./errors.js";
import { LIMITS } from "./limits.js";
import { type Position, convertTree } from "./tree-convert.js";
import { treeFromDocument } from "./yaml-document.js";
import { treeFromEvents } from "./yaml-events.js";
import type { TreeNode } from "./yaml-tree.js";

/** A parsed file: its plain value (objects, arrays, scalars) and where each part was written. */
export interface SourceFile {
  file: string;
  value: unknown;
  /** The position of the value (or, with `"key"`, of the key) at `path`, or of its nearest written parent. */
  locate(path: Path, at?: "key" | "value"): Origin;
}

/**
 * `problems` are errors that still leave a usable value (a repeated key: the first is kept; an
 * unsupported tag: the plain value is kept), so the rest of the file is checked in the same run.
 * `aliased`: the file holds an alias, so a path may be placed where its anchor is written, before
 * the paths written ahead of it.
 */
export type ParseResult =
  | { ok: true; source: SourceFile; problems: ConfigError[]; aliased: boolean }
  | { ok: false; errors: ConfigError[] };

/**
 * Where a YAML problem is shown: the parser reports some at the indentation before a key (column 1
 * of a misindented line) and some at the end of the text (a line past the file's last); the error
 * points at the first character written there instead — the key, or the file's last character.
 */
function problemOffset(text: string, offset: number): number {
  let at = offset;
  if (at >= text.trimEnd().length) at = Math.max(0, text.trimEnd().length - 1);
  while (at < text.length && (text[at] === " " || text[at] === "\t")) at++;
  return at;
}

/** Decodes, bounds and parses one file; every problem comes back as a positioned error, never a throw. */
export function parseSource(file: string, content: string | Uint8Array): ParseResult {
  const size = typeof content === "string" ? Buffer.byteLength(content) : content.byteLength;
  if (size > LIMITS.maxBytes) return fileError(file, sizeMessage(size));
  const decoded = decode(file, content);
  if (!decoded.ok) return decoded;
  const text = decoded.text;

  const lines = new LineCounter();
  const position: Position = (offset) => {
    const { line, col } = lines.linePos(offset);
    return { file, line: Math.max(line, 1), column: Math.max(col, 1) };
  };
  const parsed = parseTree(text, lines, position);
  if (!parsed.ok) return parsed;
  if (parsed.root === null) {
    return fileError(file, "the file is empty; expected a mapping that starts with 'version: 1'");
  }
  const converted = convertTree(parsed.root, text, position);
  if (converted.value === undefined) return { ok: false, errors: converted.errors };
  return {
    ok: true,
    problems: converted.errors,
    aliased: converted.aliased,
    source: {
      file,
      value: converted.value,
      locate: (path, at = "value") => converted.locate(path, at),
    },
  };
}

/**
 * The document's tree: from js-yaml's events where they read the file as the YAML library would
 * (yaml-events.ts says when), else from the YAML library, whose errors are the ones reported.
 * Either way `lines` learns every line start, for positions.
 */
function parseTree(
  text: string,
  lines: LineCounter,
  position: Position,
): { ok: true; root: TreeNode | null } | { ok: false; errors: ConfigError[] } {
  let deepAt: number | undefined;
  const fast = treeFromEvents(text, LIMITS.maxDepth, (offset) => (deepAt = offset));
  if (fast !== undefined) {
    countLines(text, lines);
    return { ok: true, root: fast };
  }
  const early = deepAt === undefined ? undefined : tooDeepBefore(text, deepAt);
  if (early !== undefined) {
    countLines(text, lines);
    return { ok: false, errors: [tooDeepError(position(early))] };
  }
  const documents = compose(text, lines);
  if (typeof documents === "number")
    return { ok: false, errors: [tooDeepError(position(documents))] };
  const errors: ConfigError[] = [];
  for (const document of documents) {
    for (const problem of [...document.errors, ...document.warnings]) {
      const at = position(problemOffset(text, problem.pos[0]));
      errors.push(errorAt(at, [], `YAML: ${problem.message.split("\n")[0]}`));
    }
  }
  const [document, second] = documents;
  if (second !== undefined) {
    errors.push(
      errorAt(
        position(second.range[0]),
        [],
        "a file holds one YAML document; put the second one in its own file",
      ),
    );
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, root: treeFromDocument(document?.contents) };
}

/** Tells `lines` where every line starts, as the YAML library's parser does while it reads. */
function countLines(text: string, lines: LineCounter): void {
  lines.addNewLine(0);
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
    lines.addNewLine(at + 1);
  }
}

function fileError(file: string, message: string): { ok: false; errors: ConfigError[] } {
  return { ok: false, errors: [errorAt({ file, line: 1, column: 1 }, [], message)] };
}

export function sizeMessage(bytes: number): string {
  return `the file is larger than the ${LIMITS.maxBytes / (1024 * 1024)} MiB limit (${bytes} bytes)`;
}

function decode(
  file: string,
  content: string | Uint8Array,
): { ok: true; text: string } | { ok: false; errors: ConfigError[] } {
  const nul = typeof content === "string" ? content.indexOf("\0") : content.indexOf(0);
  const at = (text: string, index: number, message: string) => {
    const before = text.slice(0, index);
    const line = before.split("\n").length;
    const column = index - before.lastIndexOf("\n");
    return { ok: false as const, errors: [errorAt({ file, line, column }, [], message)] };
  };
  if (typeof content === "string") {
    if (nul >= 0) return at(content, nul, "binary content (a NUL byte); expected UTF-8 text");
    return { ok: true, text: content };
  }
  // The lenient decoding, which positions the error, only for a file that has one (each decoding of
  // 2 MB is 10-15 ms).
  const lenient = () => new TextDecoder("utf-8").decode(content);
  if (nul >= 0) {
    const text = lenient();
    return at(text, text.indexOf("\0"), "binary content (a NUL byte); expected UTF-8 text");
  }
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(content) };
  } catch {
    const text = lenient();
    return at(
      text,
      Math.max(text.indexOf("\uFFFD"), 0),
      "invalid UTF-8; the file must be UTF-8 text",
    );
  }
}

/**
 * The first two documents of `text`, or the offset of the first collection nested too deeply in
 * them. The syntax tree is only needed here: once this returns it is garbage, not carried through
 * the rest of the load.
 */
function compose(text: string, lines: LineCounter): Document.Parsed[] | number {
  return withoutEnvironment(() => {
    const tokens: CST.Token[] = [];
    let documents = 0;
    for (const token of new Parser(lines.addNewLine).parse(text)) {
      // A file holds one document, so a second is an error whatever the later ones hold: the text
      // is read up to where a third starts, no further (2 MB of `---` took 7 s to compose).
      if (token.type === "document" && ++documents > 2) break;
      tokens.push(token);
    }
    const tooDeep = findTooDeep(tokens);
    if (tooDeep !== undefined) return tooDeep;
    return [
      ...new Composer({ prettyErrors: false, uniqueKeys: false, version: "1.2" }).compose(tokens),
    ];
  });
}

function tooDeepError(at: Origin): ConfigError {
  return errorAt(at, [], `nesting is deeper than ${LIMITS.maxDepth} levels`);
}

/** How far past where js-yaml stopped the YAML library reads to find the collection too deep. */
const DEPTH_SLACK = 4096;

/**
 * The first collection nested too deeply, found by the YAML library in the text up to a little past
 * where js-yaml stopped for depth (`stoppedAt`), or undefined when it is not found there (then the
 * whole file is read as before). Tokenizing all of a 2 MB run of `[` took the YAML library 13 s
 * and 1.8 GB to find the one error at its start.
 *
 * A collection's depth is its ancestors', and they start before it, so the first too-deep one of the
 * whole file is the first of any prefix that holds it, as long as the prefix is read the same way
 * up to its end. js-yaml counts every node, scalars too, so the collection is at or a little after
 * where it stopped. The cut is DEPTH_SLACK past that, moved to the end of its line when the rest of
 * the line holds a `:`, since only a `:` later on a line makes what came before it on that line a
 * key (YAML 1.2 restricts an implicit key to a single line).
 */
function tooDeepBefore(text: string, stoppedAt: number): number | undefined {
  let cut = Math.min(text.length, stoppedAt + DEPTH_SLACK);
  const lineEnd = text.indexOf("\n", cut);
  const end = lineEnd < 0 ? text.length : lineEnd + 1;
  if (text.slice(cut, end).includes(":")) cut = end;
  return withoutEnvironment(() => findTooDeep([...new Parser().parse(text.slice(0, cut))]));
}

/**
 * Runs the YAML library with an empty `process.env`. yaml 2 reads `LOG_TOKENS` for every token it
 * parses and `LOG_STREAM` for every document it composes, and when either is set prints the file's
 * tokens to stdout with `console.log` — past the redactor, into `--json` output and CI logs. Each of
 * those reads is also a call into the runtime (900,000 for a file of 100,000 entries, a fifth of its
 * parse). The library reads nothing else from the environment, and `work` is synchronous: no other
 * code runs before `process.env` is put back.
 */
export function withoutEnvironment<T>(work: () => T): T {
  const env = process.env;
  process.env = {};
  try {
    return work();
  } finally {
    process.env = env;
  }
}

/**
 * Measures nesting on the concrete syntax tree before composing: the composer recurses per level,
 * so a few thousand nested brackets would overflow its stack. This walk recurses too, but stops at
 * the first collection past the limit, so it never goes deeper than LIMITS.maxDepth + 1 calls; it
 * allocates nothing (a file of 2 MB has about a million tokens).
 */
function findTooDeep(roots: readonly CST.Token[]): number | undefined {
  for (const root of roots) {
    const found = tooDeep(root, 0);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `depth` counts the collections around `token`; a collection adds one level for its contents. */
function tooDeep(token: CST.Token | null | undefined, depth: number): number | undefined {
  if (!token) return undefined;
  switch (token.type) {
    case "document":
      return tooDeep(token.value, depth);
    case "block-map":
    case "flow-collection":
      if (depth + 1 > LIMITS.maxDepth) return token.offset;
      for (const item of token.items) {
        const found = tooDeep(item.key, depth + 1) ?? tooDeep(item.value, depth + 1);
        if (found !== undefined) return found;
      }
      return undefined;
    case "block-seq":
      if (depth + 1 > LIMITS.maxDepth) return token.offset;
      for (const item of token.items) {
        const found = tooDeep(item.value, depth + 1);
        if (found !== undefined) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}
