import { isPlainObject } from "../core/plain.js";
import { Secret } from "../core/secret.js";
import { ENV_REFERENCE, SECRET_KEYS } from "./interpolate.js";
import { setKey } from "./merge.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Replaces every `${NAME}` under a secret key (which the schema has checked is exactly a reference)
 * with a Secret holding the variable's value: from here on the value never sits in a plain string,
 * whichever kind the key belongs to. Like `interpolate`, it copies only the mappings and lists on the
 * way to a secret and returns the rest as it is: a file of 100,000 entries holds few secrets.
 */
export function wrapSecrets(value: unknown, env: Env): unknown {
  const walk = (node: unknown, key: string | number | undefined): unknown => {
    if (typeof node === "string" && typeof key === "string" && SECRET_KEYS.has(key)) {
      const name = ENV_REFERENCE.exec(node)?.[1];
      return name === undefined ? node : new Secret(env[name] ?? "", name);
    }
    if (Array.isArray(node)) {
      let copy: unknown[] | undefined;
      node.forEach((item, index) => {
        const inner = walk(item, index);
        if (inner !== item) copy ??= node.slice();
        if (copy !== undefined) copy[index] = inner;
      });
      return copy ?? node;
    }
    if (isPlainObject(node)) {
      let copy: Record<string, unknown> | undefined;
      for (const [child, inner] of Object.entries(node)) {
        const wrapped = walk(inner, child);
        // Spread defines keys, so a `__proto__` key is copied as a key.
        if (wrapped !== inner) copy ??= { ...node };
        if (copy !== undefined) setKey(copy, child, wrapped);
      }
      return copy ?? node;
    }
    return node;
  };
  return walk(value, undefined);
}
