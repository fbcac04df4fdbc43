import {
  type Alias,
  Composer,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  type Pair,
  Parser,
  type ParsedNode,
  type Scalar,
  type YAMLMap,
} from "yaml";
import type { CST } from "yaml";
import { type ConfigError, type Origin, type Path, errorAt } from "./errors.js";
import { setKey } from "./merge.js";

/** Bounds that keep hostile input from exhausting memory, time or the stack. */
export const LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  /** Far deeper than any real config, far shallower than what overflows the YAML composer's stack. */
  maxDepth: 64,
  /** How many values aliases may add to a document once expanded (alias bombs grow exponentially). */
  maxAliasValues: 1_000_000,
};

const PLAIN_TAGS = new Set(
  ["str", "int", "float", "bool", "null", "map", "seq"].map((name) => `tag:yaml.org,2002:${name}`),
);

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
 */
export type ParseResult =
  { ok: true; source: SourceFile; problems: ConfigError[] } | { ok: false; errors: ConfigError[] };

type Position = (offset: number) => Origin;

interface Shape {
  size: number;
  depth: number;
}

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
  const documents = compose(text, lines);
  if (typeof documents === "number") {
    return {
      ok: false,
      errors: [
        errorAt(position(documents), [], `nesting is deeper than ${LIMITS.maxDepth} levels`),
      ],
    };
  }
  const errors: ConfigError[] = [];
  for (const document of documents) {
    for (const problem of [...document.errors, ...document.warnings]) {
      const at = position(problemOffset(text, problem.pos[0]));
      errors.push(errorAt(at, [], `YAML: ${problem.message.split("\n")[0]}`));
    }
  }
  const [document, second] = documents;
  if (second !== undefined) {
    const start = second.range[0];
    errors.push(
      errorAt(
        position(start),
        [],
        "a file holds one YAML document; put the second one in its own file",
      ),
    );
  }
  if (errors.length > 0) return { ok: false, errors };
  if (document === undefined || document.contents === null) {
    return fileError(file, "the file is empty; expected a mapping that starts with 'version: 1'");
  }

  const root = document.contents;
  // Without a "*" anywhere the document holds no alias, and the walk that finds them is skipped.
  const index = new DocumentIndex(root, text.includes("*"));
  const converted = new Converter(index, position).run(root);
  if (converted.value === undefined) return { ok: false, errors: converted.errors };
  return {
    ok: true,
    problems: converted.errors,
    source: {
      file,
      value: converted.value,
      locate: (path, at = "value") => locate(index, root, path, at, position),
    },
  };
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
 * The documents of `text`, or the offset of the first collection nested too deeply. The syntax tree
 * is only needed here: once this returns it is garbage, not carried through the rest of the load.
 */
function compose(text: string, lines: LineCounter): Document.Parsed[] | number {
  return withoutEnvironment(() => {
    const tokens = [...new Parser(lines.addNewLine).parse(text)];
    const tooDeep = findTooDeep(tokens);
    if (tooDeep !== undefined) return tooDeep;
    return [
      ...new Composer({ prettyErrors: false, uniqueKeys: false, version: "1.2" }).compose(tokens),
    ];
  });
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

/**
 * Where every alias points (found in one pass over the document) and which pair holds each key (a
 * mapping's keys are indexed the first time one is asked for). The YAML library's `Alias.resolve`
 * walks the whole document on every call, which made a file with thousands of aliases (or merge
 * keys) quadratic.
 */
class DocumentIndex {
  /** Every alias in a value position, in document order, with the key path it sits at. */
  readonly aliases: Array<{ alias: Alias; path: Path }> = [];
  readonly #targets = new Map<Alias, Node>();
  readonly #pairs = new WeakMap<YAMLMap, Map<string, Pair>>();

  constructor(root: ParsedNode, mayHoldAliases: boolean) {
    if (!mayHoldAliases) return;
    // As the YAML library resolves them: the last node before the alias (in document order, a
    // collection before its contents) that carries the anchor.
    const anchors = new Map<string, Node>();
    const path: Array<string | number> = [];
    const walk = (node: unknown): void => {
      if (isAlias(node)) {
        const target = anchors.get(node.source);
        if (target !== undefined) this.#targets.set(node, target);
        return;
      }
      if (!isScalar(node) && !isMap(node) && !isSeq(node)) return;
      if (node.anchor) anchors.set(node.anchor, node);
      if (isScalar(node)) return;
      for (const [index, item] of node.items.entries()) {
        const value = isPair(item) ? item.value : item;
        if (isPair(item) && !isAlias(item.key)) walk(item.key);
        path.push(isPair(item) && isScalar(item.key) ? String(item.key.value) : index);
        if (isAlias(value)) this.aliases.push({ alias: value, path: [...path] });
        walk(value);
        path.pop();
      }
    };
    walk(root);
  }

  /** The node an alias refers to, or undefined when no anchor of its name comes before it. */
  target(alias: Alias): Node | undefined {
    return this.#targets.get(alias);
  }

  /** Follows aliases (a chain of them too) to the node they stand for. */
  resolve(node: unknown): unknown {
    let current = node;
    for (let hops = 0; isAlias(current) && hops <= LIMITS.maxDepth; hops++) {
      current = this.target(current);
    }
    return isAlias(current) ? undefined : current;
  }

  /** The pair of `map` written with `key` (the first, if repeated), or one a merge key brings in. */
  pair(map: YAMLMap, key: string, visiting = new Set<YAMLMap>()): Pair | undefined {
    let pairs = this.#pairs.get(map);
    if (pairs === undefined) {
      pairs = new Map();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const text = keyText(pair.key);
        if (!pairs.has(text)) pairs.set(text, pair);
      }
      this.#pairs.set(map, pairs);
    }
    const own = pairs.get(key);
    if (own !== undefined || visiting.has(map)) return own;
    visiting.add(map);
    for (const source of this.mergeSources(map)) {
      const found = this.pair(source, key, visiting);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The mappings `<<` keys of `map` merge in, in order (the first one wins a key). */
  mergeSources(map: YAMLMap): YAMLMap[] {
    const sources: YAMLMap[] = [];
    for (const pair of map.items) {
      if (!isMergeKey(pair.key)) continue;
      const value = this.resolve(pair.value);
      const listed = isSeq(value) ? value.items.map((item) => this.resolve(item)) : [value];
      for (const source of listed) if (isMap(source)) sources.push(source);
    }
    return sources;
  }
}

/**
 * A YAML merge key (`<<: *defaults`, or a list of aliases): the plain, unquoted key `<<`, as YAML
 * 1.1 defines it (https://yaml.org/type/merge.html) and as the YAML library reads it.
 */
function isMergeKey(key: unknown): boolean {
  return isScalar(key) && key.type === "PLAIN" && key.source === "<<";
}

/** Turns the YAML tree into plain values, refusing what a config never needs and bounding aliases. */
class Converter {
  readonly errors: ConfigError[] = [];
  #aliasValues = 0;
  readonly #shapes = new Map<Node, Shape>();
  /** The key path of the node being converted; copied only when an error is recorded. */
  readonly #path: Array<string | number> = [];

  constructor(
    private readonly index: DocumentIndex,
    private readonly position: Position,
  ) {}

  run(root: ParsedNode): { value: unknown; errors: ConfigError[] } {
    this.#checkAliases();
    if (this.errors.length > 0) return { value: undefined, errors: this.errors };
    return { value: this.#convert(root), errors: this.errors };
  }

  #at(node: Node | null | undefined, path: Path, message: string): void {
    this.errors.push(errorAt(this.position(node?.range?.[0] ?? 0), path, message));
  }

  /** Adds up, in document order, what every alias expands to; stops at the first alias over a limit. */
  #checkAliases(): void {
    for (const { alias, path } of this.index.aliases) {
      const target = this.index.target(alias);
      const shape = target === undefined ? { size: 0, depth: 0 } : this.#shape(target, new Set());
      if (shape === undefined) {
        this.#at(alias, path, `alias *${alias.source} refers to a value that contains itself`);
        return;
      }
      if (path.length + shape.depth > LIMITS.maxDepth) {
        this.#at(
          alias,
          path,
          `alias *${alias.source} nests values deeper than ${LIMITS.maxDepth} levels`,
        );
        return;
      }
      this.#aliasValues += shape.size;
      if (this.#aliasValues > LIMITS.maxAliasValues) {
        this.#at(
          alias,
          path,
          `aliases expand to more than ${LIMITS.maxAliasValues} values; refusing what looks like an alias bomb`,
        );
        return;
      }
    }
  }

  /**
   * Expanded size and depth of a node, memoized so shared anchors cost linear time (document order
   * means an alias's target is usually measured already); undefined on a cycle.
   */
  #shape(node: unknown, visiting: Set<unknown>): Shape | undefined {
    if (isAlias(node)) {
      const target = this.index.target(node);
      return target === undefined ? { size: 1, depth: 0 } : this.#shape(target, visiting);
    }
    if (!isMap(node) && !isSeq(node)) return { size: 1, depth: 0 };
    const known = this.#shapes.get(node);
    if (known !== undefined) return known;
    if (visiting.has(node)) return undefined;
    visiting.add(node);
    const shape = { size: 1, depth: 1 };
    for (const item of node.items) {
      const child = isPair(item) ? item.value : item;
      const inner =
        child === null || child === undefined
          ? { size: 1, depth: 0 }
          : this.#shape(child, visiting);
      if (inner === undefined) return undefined;
      shape.size += inner.size;
      shape.depth = Math.max(shape.depth, inner.depth + 1);
      if (shape.size > LIMITS.maxAliasValues || shape.depth > LIMITS.maxDepth) break;
    }
    visiting.delete(node);
    this.#shapes.set(node, shape);
    return shape;
  }

  #convert(node: unknown): unknown {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return this.#convert(this.index.target(node));
    const tagged = node as Node;
    if (tagged.tag !== undefined && !PLAIN_TAGS.has(tagged.tag)) {
      this.#at(
        tagged,
        this.#path,
        `unsupported tag ${shortTag(tagged.tag)}; a config holds plain strings, numbers, booleans, null, mappings and lists`,
      );
    }
    if (isScalar(node)) return isPlainScalar(node.value) ? node.value : String(node.value);
    if (isSeq(node)) {
      return node.items.map((item, index) => {
        this.#path.push(index);
        const value = this.#convert(item);
        this.#path.pop();
        return value;
      });
    }
    if (isMap(node)) {
      const result: Record<string, unknown> = {};
      let merge: Pair | undefined;
      for (const pair of node.items) {
        const merging = isMergeKey(pair.key);
        const key = merging ? "<<" : this.#key(pair.key);
        if (key === undefined) continue;
        if (merging ? merge !== undefined : Object.hasOwn(result, key)) {
          this.#duplicate(node, pair, key);
          continue;
        }
        if (merging) {
          merge = pair;
          continue;
        }
        this.#path.push(key);
        setKey(result, key, this.#convert(pair.value));
        this.#path.pop();
      }
      // After the mapping's own keys, which win over what the merge brings in.
      if (merge !== undefined) this.#merge(merge, result);
      return result;
    }
    this.#at(tagged, this.#path, "unsupported YAML value");
    return null;
  }

  /** A key written twice: the first is kept, the repeat is an error naming where the first is. */
  #duplicate(map: YAMLMap, repeat: Pair, key: string): void {
    const first = map.items.find((pair) =>
      isMergeKey(repeat.key)
        ? isMergeKey(pair.key)
        : !isMergeKey(pair.key) && isScalar(pair.key) && keyText(pair.key) === key,
    )!;
    const line = this.position((first.key as Node).range?.[0] ?? 0).line;
    this.#at(
      repeat.key as Node,
      [...this.#path, key],
      `duplicate key (first written at line ${line})`,
    );
  }

  /** Adds the keys a merge key brings in that the mapping does not write itself. */
  #merge(pair: Pair, result: Record<string, unknown>): void {
    const value = this.index.resolve(pair.value);
    // Errors point at what the entry wrote: the item of a written list, else the merge key's value.
    const listed = isSeq(value)
      ? value.items.map((item) => ({ item, written: isSeq(pair.value) ? item : pair.value }))
      : [{ item: pair.value, written: pair.value }];
    for (const { item, written } of listed) {
      const source = this.index.resolve(item);
      if (!isMap(source)) {
        this.#at(
          (written ?? pair.key) as Node,
          [...this.#path, "<<"],
          "a merge key (<<) takes a mapping, an alias of one, or a list of them",
        );
        return;
      }
      const merged = this.#convert(source) as Record<string, unknown>;
      for (const [key, inner] of Object.entries(merged)) {
        if (!Object.hasOwn(result, key)) setKey(result, key, inner);
      }
    }
  }

  #key(key: unknown): string | undefined {
    if (isScalar(key) && (typeof key.value === "string" || typeof key.value === "number")) {
      // The written text, so a branch named 1.10 stays "1.10" rather than the number 1.1.
      return keyText(key);
    }
    this.#at(key as Node, this.#path, "keys must be plain strings");
    return undefined;
  }
}

function isPlainScalar(value: unknown): boolean {
  const type = typeof value;
  return value === null || type === "string" || type === "number" || type === "boolean";
}

function shortTag(tag: string): string {
  return tag.startsWith("tag:yaml.org,2002:") ? `!!${tag.slice("tag:yaml.org,2002:".length)}` : tag;
}

/** Finds the node at `path`, following aliases and merge keys; falls back to the nearest written parent. */
function locate(
  index: DocumentIndex,
  root: ParsedNode,
  path: Path,
  at: "key" | "value",
  position: Position,
): Origin {
  let node: unknown = root;
  let keyNode: Node | undefined;
  for (const segment of path) {
    node = index.resolve(node);
    let next: unknown;
    if (isMap(node)) {
      const pair = index.pair(node, String(segment));
      if (pair === undefined) break;
      keyNode = pair.key as Node;
      next = pair.value ?? pair.key;
    } else if (isSeq(node) && typeof segment === "number" && node.items[segment] !== undefined) {
      keyNode = undefined;
      next = node.items[segment];
    } else {
      break;
    }
    node = next;
  }
  const target =
    at === "key" && keyNode !== undefined ? keyNode : ((index.resolve(node) ?? node) as Node);
  return position(target.range?.[0] ?? 0);
}

function keyText(key: Scalar): string {
  return key.type === "PLAIN" && key.source !== undefined ? key.source : String(key.value);
}
