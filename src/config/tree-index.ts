import type { Path } from "./errors.js";
import type { TreeAlias, TreeMap, TreeNode, TreePair } from "./yaml-tree.js";

/** Mappings of at most this many pairs are scanned for a key rather than indexed. */
const SCANNED_PAIRS = 8;

/**
 * Where every alias points (found in one pass over the document) and which pair holds each key (a
 * longer mapping's keys are indexed the first time one is asked for). Resolving an alias by walking the
 * document on every call (as the YAML library's `Alias.resolve` does) made a file with thousands
 * of aliases (or merge keys) quadratic.
 */
export class TreeIndex {
  /** Every alias in a value position, in document order, with the key path it sits at. */
  readonly aliases: Array<{ alias: TreeAlias; path: Path }> = [];
  readonly #targets = new Map<TreeAlias, TreeNode>();
  readonly #pairs = new WeakMap<TreeMap, Map<string, TreePair>>();
  #holdsAliases = false;

  constructor(
    root: TreeNode,
    mayHoldAliases: boolean,
    private readonly maxHops: number,
  ) {
    if (!mayHoldAliases) return;
    // As the YAML library resolves them: the last node before the alias (in document order, a
    // collection before its contents) that carries the anchor.
    const anchors = new Map<string, TreeNode>();
    const path: Array<string | number> = [];
    const walk = (node: TreeNode | null): void => {
      if (node === null) return;
      if (node.kind === "alias") {
        this.#holdsAliases = true;
        const target = anchors.get(node.name);
        if (target !== undefined) this.#targets.set(node, target);
        return;
      }
      if (node.anchor !== undefined) anchors.set(node.anchor, node);
      if (node.kind === "seq") {
        for (let index = 0; index < node.items.length; index++) visit(index, node.items[index]!);
      } else if (node.kind === "map") {
        for (let index = 0; index < node.pairs.length; index++) {
          const { key, value } = node.pairs[index]!;
          if (key?.kind === "alias") this.#holdsAliases = true;
          else walk(key);
          visit(key?.kind === "scalar" ? String(key.value) : index, value);
        }
      }
    };
    const visit = (segment: string | number, value: TreeNode | null): void => {
      path.push(segment);
      if (value?.kind === "alias") this.aliases.push({ alias: value, path: [...path] });
      walk(value);
      path.pop();
    };
    walk(root);
  }

  /** Whether the document holds an alias anywhere, as a key too. */
  get holdsAliases(): boolean {
    return this.#holdsAliases;
  }

  /** The node an alias refers to, or undefined when no anchor of its name comes before it. */
  target(alias: TreeAlias): TreeNode | undefined {
    return this.#targets.get(alias);
  }

  /** Follows aliases (a chain of them too) to the node they stand for. */
  resolve(node: TreeNode | null | undefined): TreeNode | null | undefined {
    let current = node;
    for (let hops = 0; current?.kind === "alias" && hops <= this.maxHops; hops++) {
      current = this.target(current);
    }
    return current?.kind === "alias" ? undefined : current;
  }

  /** The pair of `map` written with `key` (the first, if repeated), or one a merge key brings in. */
  pair(map: TreeMap, key: string, visiting?: Set<TreeMap>): TreePair | undefined {
    const own = this.#ownPair(map, key);
    if (own !== undefined || visiting?.has(map) === true) return own;
    const sources = this.mergeSources(map);
    if (sources.length === 0) return undefined;
    // Made only where a merge key is followed: every entry's position is looked up, and few merge.
    visiting ??= new Set();
    visiting.add(map);
    for (const source of sources) {
      const found = this.pair(source, key, visiting);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The pair `map` writes itself with `key` (the first, if repeated). */
  #ownPair(map: TreeMap, key: string): TreePair | undefined {
    // A short mapping is scanned: an index of its own for each of 100,000 entries of two keys
    // cost more than it saved.
    if (map.pairs.length <= SCANNED_PAIRS) {
      for (const pair of map.pairs) {
        if (pair.key?.kind === "scalar" && pair.key.text === key) return pair;
      }
      return undefined;
    }
    let pairs = this.#pairs.get(map);
    if (pairs === undefined) {
      pairs = new Map();
      for (const pair of map.pairs) {
        if (pair.key?.kind !== "scalar") continue;
        if (!pairs.has(pair.key.text)) pairs.set(pair.key.text, pair);
      }
      this.#pairs.set(map, pairs);
    }
    return pairs.get(key);
  }

  /** The mappings `<<` keys of `map` merge in, in order (the first one wins a key). */
  mergeSources(map: TreeMap): TreeMap[] {
    const sources: TreeMap[] = [];
    for (const pair of map.pairs) {
      if (!isMergeKey(pair.key)) continue;
      const value = this.resolve(pair.value);
      const listed =
        value?.kind === "seq" ? value.items.map((item) => this.resolve(item)) : [value];
      for (const source of listed) if (source?.kind === "map") sources.push(source);
    }
    return sources;
  }
}

/**
 * A YAML merge key (`<<: *defaults`, or a list of aliases): the plain, unquoted key `<<`, as YAML
 * 1.1 defines it (https://yaml.org/type/merge.html) and as the YAML library reads it.
 */
export function isMergeKey(key: TreeNode | null): boolean {
  return key?.kind === "scalar" && key.plain && key.text === "<<";
}
