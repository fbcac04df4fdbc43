import {
  Composer,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  Parser,
  type ParsedNode,
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
  const tokens = [...new Parser(lines.addNewLine).parse(text)];
  const tooDeep = findTooDeep(tokens);
  if (tooDeep !== undefined) {
    return {
      ok: false,
      errors: [errorAt(position(tooDeep), [], `nesting is deeper than ${LIMITS.maxDepth} levels`)],
    };
  }

  const documents = [
    ...new Composer({ prettyErrors: false, uniqueKeys: false, version: "1.2" }).compose(tokens),
  ];
  const errors: ConfigError[] = [];
  for (const document of documents) {
    for (const problem of [...document.errors, ...document.warnings]) {
      errors.push(errorAt(position(problem.pos[0]), [], `YAML: ${problem.message.split("\n")[0]}`));
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
  const converted = new Converter(document, position).run(root);
  if (converted.value === undefined) return { ok: false, errors: converted.errors };
  return {
    ok: true,
    problems: converted.errors,
    source: {
      file,
      value: converted.value,
      locate: (path, at = "value") => locate(document, root, path, at, position),
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
  const lenient = new TextDecoder("utf-8").decode(content);
  if (nul >= 0) {
    return at(lenient, lenient.indexOf("\0"), "binary content (a NUL byte); expected UTF-8 text");
  }
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(content) };
  } catch {
    return at(
      lenient,
      Math.max(lenient.indexOf("\uFFFD"), 0),
      "invalid UTF-8; the file must be UTF-8 text",
    );
  }
}

/**
 * Measures nesting on the concrete syntax tree, iteratively, before composing: the composer recurses
 * per level, so a few thousand nested brackets would overflow its stack.
 */
function findTooDeep(tokens: readonly CST.Token[]): number | undefined {
  // `depth` counts the collections around a token; a collection adds one level for its contents.
  const stack: Array<{ token: CST.Token; depth: number }> = tokens.map((token) => ({
    token,
    depth: 0,
  }));
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    const children: Array<CST.Token | null | undefined> = [];
    let level = depth;
    switch (token.type) {
      case "document":
        children.push(token.value);
        break;
      case "block-map":
      case "flow-collection":
        level = depth + 1;
        for (const item of token.items) children.push(item.key, item.value);
        break;
      case "block-seq":
        level = depth + 1;
        for (const item of token.items) children.push(item.value);
        break;
      default:
        break;
    }
    if (level > LIMITS.maxDepth) return token.offset;
    for (const child of children) if (child) stack.push({ token: child, depth: level });
  }
  return undefined;
}

/** Turns the YAML tree into plain values, refusing what a config never needs and bounding aliases. */
class Converter {
  readonly errors: ConfigError[] = [];
  #aliasValues = 0;
  readonly #shapes = new Map<Node, Shape>();

  constructor(
    private readonly document: Document.Parsed,
    private readonly position: Position,
  ) {}

  run(root: ParsedNode): { value: unknown; errors: ConfigError[] } {
    this.#checkAliases(root, []);
    if (this.errors.length > 0) return { value: undefined, errors: this.errors };
    return { value: this.#convert(root, []), errors: this.errors };
  }

  #at(node: Node | null | undefined, path: Path, message: string): void {
    this.errors.push(errorAt(this.position(node?.range?.[0] ?? 0), path, message));
  }

  /** Walks in document order, adding up what every alias expands to; stops at the first alias over a limit. */
  #checkAliases(node: unknown, path: Path): boolean {
    if (isAlias(node)) {
      const target = node.resolve(this.document);
      const shape = target === undefined ? { size: 0, depth: 0 } : this.#shape(target, new Set());
      if (shape === undefined) {
        this.#at(node, path, `alias *${node.source} refers to a value that contains itself`);
        return false;
      }
      if (path.length + shape.depth > LIMITS.maxDepth) {
        this.#at(
          node,
          path,
          `alias *${node.source} nests values deeper than ${LIMITS.maxDepth} levels`,
        );
        return false;
      }
      this.#aliasValues += shape.size;
      if (this.#aliasValues > LIMITS.maxAliasValues) {
        this.#at(
          node,
          path,
          `aliases expand to more than ${LIMITS.maxAliasValues} values; refusing what looks like an alias bomb`,
        );
        return false;
      }
      return true;
    }
    if (isMap(node) || isSeq(node)) {
      for (const [index, item] of node.items.entries()) {
        const child = isPair(item) ? item.value : item;
        const key = isPair(item) && isScalar(item.key) ? String(item.key.value) : index;
        if (!this.#checkAliases(child, [...path, key])) return false;
      }
    }
    return true;
  }

  /**
   * Expanded size and depth of a node, memoized so shared anchors cost linear time (document order
   * means an alias's target is usually measured already); undefined on a cycle.
   */
  #shape(node: unknown, visiting: Set<unknown>): Shape | undefined {
    if (isAlias(node)) {
      const target = node.resolve(this.document);
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

  #convert(node: unknown, path: Path): unknown {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return this.#convert(node.resolve(this.document), path);
    const tagged = node as Node;
    if (tagged.tag !== undefined && !PLAIN_TAGS.has(tagged.tag)) {
      this.#at(
        tagged,
        path,
        `unsupported tag ${shortTag(tagged.tag)}; a config holds plain strings, numbers, booleans, null, mappings and lists`,
      );
    }
    if (isScalar(node)) return isPlainScalar(node.value) ? node.value : String(node.value);
    if (isSeq(node)) return node.items.map((item, index) => this.#convert(item, [...path, index]));
    if (isMap(node)) {
      const result: Record<string, unknown> = {};
      const firstLines = new Map<string, number>();
      for (const pair of node.items) {
        const key = this.#key(pair.key, path);
        if (key === undefined) continue;
        const keyPath = [...path, key];
        const first = firstLines.get(key);
        if (first !== undefined) {
          this.#at(pair.key as Node, keyPath, `duplicate key (first written at line ${first})`);
          continue;
        }
        firstLines.set(key, this.position((pair.key as Node).range?.[0] ?? 0).line);
        setKey(result, key, this.#convert(pair.value, keyPath));
      }
      return result;
    }
    this.#at(tagged, path, "unsupported YAML value");
    return null;
  }

  #key(key: unknown, path: Path): string | undefined {
    if (isScalar(key) && (typeof key.value === "string" || typeof key.value === "number")) {
      // The written text, so a branch named 1.10 stays "1.10" rather than the number 1.1.
      return key.type === "PLAIN" && key.source !== undefined ? key.source : String(key.value);
    }
    this.#at(key as Node, path, "keys must be plain strings");
    return undefined;
  }
}

function isPlainScalar(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function shortTag(tag: string): string {
  return tag.startsWith("tag:yaml.org,2002:") ? `!!${tag.slice("tag:yaml.org,2002:".length)}` : tag;
}

/** Finds the node at `path`, following aliases; falls back to the nearest written parent. */
function locate(
  document: Document.Parsed,
  root: ParsedNode,
  path: Path,
  at: "key" | "value",
  position: Position,
): Origin {
  let node: unknown = root;
  let keyNode: Node | undefined;
  for (const segment of path) {
    if (isAlias(node)) node = node.resolve(document);
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isScalar(item.key) && keyText(item.key) === String(segment),
      );
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
  const target = at === "key" && keyNode !== undefined ? keyNode : (node as Node);
  return position(target.range?.[0] ?? 0);
}

function keyText(key: Node): string {
  return isScalar(key) && key.type === "PLAIN" && key.source !== undefined
    ? key.source
    : String(isScalar(key) ? key.value : "");
}
