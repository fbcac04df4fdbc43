import { isPlainObject } from "../core/plain.js";
import type { Path } from "./errors.js";

/** One source of settings for an entry: defaults, a profile or the entry itself, and where it was written. */
export interface Layer<Source = unknown> {
  /** "defaults", "profile strict" or "entry". */
  label: string;
  source: Source;
  /** Where `value` sits in its file. */
  path: Path;
  value: unknown;
}

/**
 * Sets a key on a plain object, also when the key is "__proto__" (a legal YAML key, e.g. a branch
 * name), which plain assignment would take as the object's prototype.
 */
export function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else target[key] = value;
}

/**
 * The one merge policy (docs/configuration.md, "How settings merge"), used for defaults → profiles → entry and for
 * every entry that selects the same repository: mappings merge key by key, all the way down; anything
 * else (a list, a scalar, null, a secret) replaces what was there. The result shares nothing with its
 * inputs.
 */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return copy(over);
  const result: Record<string, unknown> = {};
  // Keys, not entries: merging runs for every entry of a file that may hold 100,000.
  for (const key of Object.keys(base)) {
    if (!Object.hasOwn(over, key)) setKey(result, key, copy(base[key]));
  }
  for (const key of Object.keys(over)) {
    const value = over[key];
    setKey(result, key, Object.hasOwn(base, key) ? deepMerge(base[key], value) : copy(value));
  }
  return result;
}

/** The layers merged in order over an empty mapping: the first one's copy, the rest merged in. */
export function mergeLayers(layers: readonly Layer[]): unknown {
  if (layers.length === 0) return {};
  // deepMerge({}, value) is copy(value), whatever the value.
  let merged = copy(layers[0]!.value);
  for (let index = 1; index < layers.length; index++) {
    merged = deepMerge(merged, layers[index]!.value);
  }
  return merged;
}

function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (isPlainObject(value)) {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setKey(result, key, copy(value[key]));
    return result;
  }
  return value;
}

export function hasPath(value: unknown, path: Path): boolean {
  let node = value;
  for (const segment of path) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, segment)) return false;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return true;
}

/**
 * The layer a merged value at `path` came from: the last one that writes it. (A later layer that
 * replaced a parent with a list or null would have removed the path from the merged result.)
 */
export function layerOf<L extends Layer>(layers: readonly L[], path: Path): L | undefined {
  for (let index = layers.length - 1; index >= 0; index--) {
    if (hasPath(layers[index]!.value, path)) return layers[index];
  }
  return undefined;
}

/** The paths of a value's leaves: mappings are walked, anything else (lists included) is a leaf. */
export function leafPaths(value: unknown, prefix: Path = []): Path[] {
  if (!isPlainObject(value)) return [prefix];
  const entries = Object.entries(value);
  if (entries.length === 0) return prefix.length === 0 ? [] : [prefix];
  return entries.flatMap(([key, child]) => leafPaths(child, [...prefix, key]));
}
