import { isPlainObject } from "../core/plain.js";
import { Secret } from "../core/secret.js";
import type { Path } from "./errors.js";
import { ENV_REFERENCE } from "./interpolate.js";
import { setKey } from "./merge.js";
import type { SecretAt } from "./secret-paths.js";
import { envValue } from "./env.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Replaces every `${NAME}` where the file holds a secret reference (which the schema has checked is
 * exactly a reference) with a Secret holding the variable's value: from here on the value never sits
 * in a plain string, whichever kind it belongs to. Like `interpolate`, it copies only the mappings
 * and lists on the way to a secret and returns the rest as it is: a file of 100,000 entries holds
 * few secrets.
 */
export function wrapSecrets(value: unknown, env: Env, secretAt: SecretAt): unknown {
  const path: Array<string | number> = [];
  const walk = (node: unknown): unknown => {
    if (typeof node === "string" && path.length > 0 && secretAt(path as Path)) {
      const name = ENV_REFERENCE.exec(node)?.[1];
      return name === undefined ? node : new Secret(envValue(env, name) ?? "", name);
    }
    if (Array.isArray(node)) {
      let copy: unknown[] | undefined;
      node.forEach((item, index) => {
        path.push(index);
        const inner = walk(item);
        path.pop();
        if (inner !== item) copy ??= node.slice();
        if (copy !== undefined) copy[index] = inner;
      });
      return copy ?? node;
    }
    if (isPlainObject(node)) {
      let copy: Record<string, unknown> | undefined;
      for (const child of Object.keys(node)) {
        const inner = node[child];
        path.push(child);
        const wrapped = walk(inner);
        path.pop();
        // Spread defines keys, so a `__proto__` key is copied as a key.
        if (wrapped !== inner) copy ??= { ...node };
        if (copy !== undefined) setKey(copy, child, wrapped);
      }
      return copy ?? node;
    }
    return node;
  };
  return walk(value);
}
