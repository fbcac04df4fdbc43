import { isPlainObject } from "../core/plain.js";
import { Secret } from "../core/secret.js";
import { ENV_REFERENCE, SECRET_KEYS } from "./interpolate.js";
import { setKey } from "./merge.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Replaces every `${NAME}` under a secret key (which the schema has checked is exactly a reference)
 * with a Secret holding the variable's value: from here on the value never sits in a plain string,
 * whichever kind the key belongs to.
 */
export function wrapSecrets(value: unknown, env: Env): unknown {
  const walk = (node: unknown, key: string | number | undefined): unknown => {
    if (typeof node === "string" && typeof key === "string" && SECRET_KEYS.has(key)) {
      const name = ENV_REFERENCE.exec(node)?.[1];
      return name === undefined ? node : new Secret(env[name] ?? "", name);
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, index));
    if (isPlainObject(node)) {
      const result: Record<string, unknown> = {};
      for (const [child, inner] of Object.entries(node)) setKey(result, child, walk(inner, child));
      return result;
    }
    return node;
  };
  return walk(value, undefined);
}
