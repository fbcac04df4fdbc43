import { setKey } from "../config/merge.js";
import type { SettingSpec } from "../config/spec.js";
import { isPlainObject } from "../core/plain.js";
import { isSecret } from "../core/secret.js";
import { stableJson } from "../core/plain.js";

/**
 * A repository setting taken apart into the resources it defines (its `defines`: one per branch
 * protection, one webhook list …), so two values can be compared, and a value cut down to some of
 * them, resource by resource. A value with only some of its resources' paths kept plans exactly
 * those resources (docs/adding-a-kind.md).
 */

type Path = ReadonlyArray<string | number>;

export interface SettingPart {
  /** Unique within the setting of one repository. */
  id: string;
  path: Path;
  /** Every place of the resource: `path`, then those it is defined with (`Defined.also`). */
  paths: Path[];
  /** "the protection of branch main". */
  what: string;
  value: unknown;
}

function valueAt(value: unknown, path: Path): unknown {
  let node = value;
  for (const segment of path) {
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/** The resources a setting's value defines, each with its part of the value. */
export function partsOf(setting: SettingSpec, value: unknown): SettingPart[] {
  if (value === undefined) return [];
  return setting.defines(value).map((defined) => {
    const paths = [defined.path, ...(defined.also ?? [])];
    const values = paths.map((path) => valueAt(value, path));
    return { ...defined, paths, value: values.length === 1 ? values[0] : values };
  });
}

/**
 * A value's identity for comparison: secrets by the variable they come from (their values never
 * take part, and a changed variable name is a change), everything else as stable JSON.
 */
export function identity(value: unknown): string {
  // JSON has no undefined: a part that is not there is its own identity.
  if (value === undefined) return "(absent)";
  const plain = (node: unknown): unknown => {
    if (isSecret(node)) return { $secret: node.source };
    if (Array.isArray(node)) return node.map(plain);
    if (isPlainObject(node)) {
      const result: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) setKey(result, key, plain(child));
      return result;
    }
    return node;
  };
  return stableJson(plain(value));
}

/** The value with only the parts at `paths` (a part at the root path is the whole value). */
export function keepParts(value: unknown, paths: readonly Path[]): unknown {
  if (paths.some((path) => path.length === 0)) return value;
  const result: Record<string, unknown> = {};
  for (const path of paths) {
    let node = result;
    for (const segment of path.slice(0, -1)) {
      const key = String(segment);
      if (!isPlainObject(node[key])) setKey(node, key, {});
      node = node[key] as Record<string, unknown>;
    }
    setKey(node, String(path.at(-1)), valueAt(value, path));
  }
  return result;
}

/** The value without the parts at `paths`; undefined when nothing is left. */
export function dropParts(value: unknown, paths: readonly Path[]): unknown {
  if (paths.some((path) => path.length === 0)) return undefined;
  if (!isPlainObject(value)) return value;
  const drop = (node: Record<string, unknown>, path: Path): Record<string, unknown> => {
    const [head, ...rest] = path.map(String);
    const result: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      if (key !== head) setKey(result, key, child);
      else if (rest.length > 0 && isPlainObject(child)) setKey(result, key, drop(child, rest));
    }
    return result;
  };
  const left = paths.reduce<Record<string, unknown>>((node, path) => drop(node, path), value);
  return Object.keys(left).length === 0 ? undefined : left;
}
