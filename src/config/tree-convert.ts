import { type ConfigError, type Origin, type Path, errorAt } from "./errors.js";
import { setKey } from "./merge.js";
import { TreeIndex, isMergeKey } from "./tree-index.js";
import { LIMITS } from "./limits.js";
import type { TreeMap, TreeNode, TreePair } from "./yaml-tree.js";

const PLAIN_TAGS = new Set(
  ["str", "int", "float", "bool", "null", "map", "seq"].map((name) => `tag:yaml.org,2002:${name}`),
);

export type Position = (offset: number) => Origin;

interface Shape {
  size: number;
  depth: number;
}

/**
 * A document's plain value (objects, arrays, scalars) and the errors that still leave it usable,
 * or, when an alias goes past a limit, only the errors; a locator for its paths; and whether it
 * holds an alias, without which every path is placed where it is written.
 */
export function convertTree(
  root: TreeNode,
  text: string,
  position: Position,
): {
  value: unknown;
  errors: ConfigError[];
  locate(path: Path, at: "key" | "value"): Origin;
  aliased: boolean;
} {
  // Without a "*" anywhere the document holds no alias, and the walk that finds them is skipped.
  const index = new TreeIndex(root, text.includes("*"), LIMITS.maxDepth);
  const converted = new Converter(index, position).run(root);
  return {
    ...converted,
    locate: (path, at) => locate(index, root, path, at, position),
    aliased: index.holdsAliases,
  };
}

/** Turns the tree into plain values, refusing what a config never needs and bounding aliases. */
class Converter {
  readonly errors: ConfigError[] = [];
  #aliasValues = 0;
  readonly #shapes = new Map<TreeNode, Shape>();
  readonly #sharedValues = new Map<TreeNode, unknown>();
  /** The key path of the node being converted; copied only when an error is recorded. */
  readonly #path: Array<string | number> = [];

  constructor(
    private readonly index: TreeIndex,
    private readonly position: Position,
  ) {}

  run(root: TreeNode): { value: unknown; errors: ConfigError[] } {
    this.#checkAliases();
    if (this.errors.length > 0) return { value: undefined, errors: this.errors };
    return { value: this.#convert(root), errors: this.errors };
  }

  #at(node: TreeNode | null | undefined, path: Path, message: string): void {
    this.errors.push(errorAt(this.position(node?.offset ?? 0), path, message));
  }

  /** Adds up, in document order, what every alias expands to; stops at the first alias over a limit. */
  #checkAliases(): void {
    for (const { alias, path } of this.index.aliases) {
      const target = this.index.target(alias);
      const shape = target === undefined ? { size: 0, depth: 0 } : this.#shape(target, new Set());
      if (shape === undefined) {
        this.#at(alias, path, `alias *${alias.name} refers to a value that contains itself`);
        return;
      }
      if (path.length + shape.depth > LIMITS.maxDepth) {
        this.#at(
          alias,
          path,
          `alias *${alias.name} nests values deeper than ${LIMITS.maxDepth} levels`,
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
  #shape(node: TreeNode, visiting: Set<TreeNode>): Shape | undefined {
    if (node.kind === "alias") {
      const target = this.index.target(node);
      return target === undefined ? { size: 1, depth: 0 } : this.#shape(target, visiting);
    }
    if (node.kind === "scalar") return { size: 1, depth: 0 };
    const known = this.#shapes.get(node);
    if (known !== undefined) return known;
    if (visiting.has(node)) return undefined;
    visiting.add(node);
    const shape = { size: 1, depth: 1 };
    const children = node.kind === "seq" ? node.items : node.pairs.map((pair) => pair.value);
    for (const child of children) {
      const inner = child === null ? { size: 1, depth: 0 } : this.#shape(child, visiting);
      if (inner === undefined) return undefined;
      shape.size += inner.size;
      shape.depth = Math.max(shape.depth, inner.depth + 1);
      if (shape.size > LIMITS.maxAliasValues || shape.depth > LIMITS.maxDepth) break;
    }
    visiting.delete(node);
    this.#shapes.set(node, shape);
    return shape;
  }

  /**
   * An alias's target, converted once: every alias of an anchor, and every merge of it, gets the
   * same value, as the YAML library's `toJS` gives an alias its anchor's value. A file of 50,000
   * entries merging one anchor holds one copy of it, not 50,000, and a schema that has checked it
   * once need not again (`listCheckedByWrittenKeys`). A conversion with errors is not kept, so each
   * use reports them at its own path.
   */
  #shared(target: TreeNode | undefined): unknown {
    if (target === undefined || target.kind === "scalar") return this.#convert(target);
    const known = this.#sharedValues.get(target);
    if (known !== undefined) return known;
    const errors = this.errors.length;
    const value = this.#convert(target);
    if (this.errors.length === errors) this.#sharedValues.set(target, value);
    return value;
  }

  #convert(node: TreeNode | null | undefined): unknown {
    if (node === null || node === undefined) return null;
    if (node.kind === "alias") return this.#shared(this.index.target(node));
    if (node.tag !== undefined && !PLAIN_TAGS.has(node.tag)) {
      this.#at(
        node,
        this.#path,
        `unsupported tag ${shortTag(node.tag)}; a config holds plain strings, numbers, booleans, null, mappings and lists`,
      );
    }
    if (node.kind === "scalar") {
      return isPlainScalar(node.value) ? node.value : String(node.value);
    }
    if (node.kind === "seq") {
      return node.items.map((item, index) => {
        this.#path.push(index);
        const value = this.#convert(item);
        this.#path.pop();
        return value;
      });
    }
    const result: Record<string, unknown> = {};
    let merge: TreePair | undefined;
    for (const pair of node.pairs) {
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

  /** A key written twice: the first is kept, the repeat is an error naming where the first is. */
  #duplicate(map: TreeMap, repeat: TreePair, key: string): void {
    const first = map.pairs.find((pair) =>
      isMergeKey(repeat.key)
        ? isMergeKey(pair.key)
        : !isMergeKey(pair.key) && pair.key?.kind === "scalar" && pair.key.text === key,
    )!;
    const line = this.position(first.key?.offset ?? 0).line;
    this.#at(repeat.key, [...this.#path, key], `duplicate key (first written at line ${line})`);
  }

  /** Adds the keys a merge key brings in that the mapping does not write itself. */
  #merge(pair: TreePair, result: Record<string, unknown>): void {
    const value = this.index.resolve(pair.value);
    // Errors point at what the entry wrote: the item of a written list, else the merge key's value.
    const listed =
      value?.kind === "seq"
        ? value.items.map((item) => ({
            item,
            written: pair.value?.kind === "seq" ? item : pair.value,
          }))
        : [{ item: pair.value, written: pair.value }];
    for (const { item, written } of listed) {
      const source = this.index.resolve(item);
      if (source?.kind !== "map") {
        this.#at(
          written ?? pair.key,
          [...this.#path, "<<"],
          "a merge key (<<) takes a mapping, an alias of one, or a list of them",
        );
        return;
      }
      const merged = this.#shared(source) as Record<string, unknown>;
      for (const [key, inner] of Object.entries(merged)) {
        if (!Object.hasOwn(result, key)) setKey(result, key, inner);
      }
    }
  }

  #key(key: TreeNode | null): string | undefined {
    if (
      key?.kind === "scalar" &&
      (typeof key.value === "string" || typeof key.value === "number")
    ) {
      // The written text, so a branch named 1.10 stays "1.10" rather than the number 1.1.
      return key.text;
    }
    this.#at(key, this.#path, "keys must be plain strings");
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
  index: TreeIndex,
  root: TreeNode,
  path: Path,
  at: "key" | "value",
  position: Position,
): Origin {
  let node: TreeNode | null | undefined = root;
  let keyNode: TreeNode | null | undefined;
  for (const segment of path) {
    node = index.resolve(node);
    let next: TreeNode | null | undefined;
    if (node?.kind === "map") {
      const pair = index.pair(node, String(segment));
      if (pair === undefined) break;
      keyNode = pair.key;
      next = pair.value ?? pair.key;
    } else if (node?.kind === "seq" && typeof segment === "number" && segment < node.items.length) {
      keyNode = undefined;
      next = node.items[segment];
    } else {
      break;
    }
    node = next;
  }
  const target = at === "key" && keyNode ? keyNode : (index.resolve(node) ?? node);
  return position(target?.offset ?? 0);
}
