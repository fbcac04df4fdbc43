import type { Path } from "./errors.js";
import { setKey } from "./merge.js";
import { envValue } from "./env.js";

/** Keys whose values are secrets: they must be exactly `${NAME}` and stay unexpanded until resolution. */
export const SECRET_KEYS: ReadonlySet<string> = new Set(["secret", "authorization_header"]);

export const ENV_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

function isSecretKey(path: Path): boolean {
  const key = path[path.length - 1];
  return typeof key === "string" && SECRET_KEYS.has(key);
}

/** `${NAME:public}` marks a value that is not sensitive; any other modifier is an error. */
const PUBLIC = "public";

export interface InterpolationProblem {
  path: Path;
  message: string;
}

/** An environment variable's value that went into the config. */
export interface EnvValue {
  name: string;
  value: string;
}

/**
 * A string that sensitive values were interpolated into: the string after replacement, and the
 * values of its references not marked public.
 */
export interface SensitiveString {
  text: string;
  values: EnvValue[];
  /** Where the string is in the file's value. */
  path: Path;
}

export interface Interpolated {
  value: unknown;
  problems: InterpolationProblem[];
  /** Every string with a `${NAME}` not marked public. */
  sensitive: SensitiveString[];
  /** The values of secret keys' references (`secret: ${NAME}`), which stay unexpanded. */
  secrets: EnvValue[];
  /** Every variable the file refers to, set or not, in the order first referred to. */
  names: string[];
  /** With `allowUnset`: where a string refers to a variable that is not set (kept as written). */
  unresolved: Path[];
}

export interface InterpolateOptions {
  /** Where the file holds secret references (default: under the secret keys). */
  secretAt?: (path: Path) => boolean;
  /**
   * A variable that is not set is no problem: its reference is kept as written and the string's
   * path listed in `unresolved` (validating the shape of a config without its secrets).
   */
  allowUnset?: boolean;
  /**
   * Where a value is stored in plain text on the service (an Actions variable): a reference there
   * not marked public is a problem, since it would publish a value treated as secret.
   */
  plainAt?: (path: Path) => boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Replaces `${NAME}` in every string value with the environment variable NAME (`$${` writes a
 * literal `${`; `${NAME:public}` marks a value that may be shown). Values under secret keys are
 * only checked, not expanded: the resolver turns them into Secret objects so the value itself never
 * sits in a plain string. Parts without references are returned as they are, not copied.
 */
export function interpolate(
  value: unknown,
  env: Env,
  { allowUnset = false, secretAt = isSecretKey, plainAt }: InterpolateOptions = {},
): Interpolated {
  const result: Interpolated = {
    value: undefined,
    problems: [],
    sensitive: [],
    secrets: [],
    names: [],
    unresolved: [],
  };
  const names = new Set<string>();
  /** Set when the string being expanded refers to a variable that is not set (allowUnset). */
  let missing = false;
  const path: Array<string | number> = [];
  const problem = (message: string) => result.problems.push({ path: [...path], message });
  /** The variable's value; when it is not set, a problem, or with allowUnset an unresolved string. */
  const lookup = (name: string): string | undefined => {
    if (!names.has(name)) {
      names.add(name);
      result.names.push(name);
    }
    const found = envValue(env, name);
    if (found !== undefined) return found;
    if (allowUnset) missing = true;
    else problem(`environment variable ${name} is not set`);
    return undefined;
  };
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") {
      missing = false;
      const expanded = walkString(node);
      if (missing) result.unresolved.push([...path]);
      return expanded;
    }
    return walkContainer(node);
  };
  const walkString = (node: string): string => {
    if (secretAt(path)) {
      const name = ENV_REFERENCE.exec(node)?.[1];
      if (name === undefined) return node;
      const found = lookup(name);
      if (found !== undefined) result.secrets.push({ name, value: found });
      return node;
    }
    if (!node.includes("${")) return node;
    if (plainAt?.(path)) {
      for (const name of privateReferences(node)) problem(publishedMessage(name));
    }
    const expanded = expand(node, lookup, problem);
    if (expanded.values.length > 0) result.sensitive.push({ ...expanded, path: [...path] });
    return expanded.text;
  };
  const walkContainer = (node: unknown): unknown => {
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
    if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      let copy: Record<string, unknown> | undefined;
      for (const key in record) {
        if (!Object.hasOwn(record, key)) continue;
        path.push(key);
        const inner = walk(record[key]);
        path.pop();
        if (inner !== record[key]) copy ??= { ...record };
        if (copy !== undefined) setKey(copy, key, inner);
      }
      return copy ?? node;
    }
    return node;
  };
  result.value = walk(value);
  return result;
}

const REFERENCE = /\$\$\{|\$\{([^}]*)(\}?)/g;

/** The variables a string refers to without `:public`. */
function privateReferences(text: string): string[] {
  const names: string[] = [];
  for (const [match, reference = "", closed] of text.matchAll(REFERENCE)) {
    // A literal `$${`, or an unclosed reference (which expand reports as malformed).
    if (match === "$${" || closed !== "}") continue;
    const parsed = NAME.exec(reference);
    if (parsed?.[1] !== undefined && parsed[2] === undefined) names.push(parsed[1]);
  }
  return names;
}

function publishedMessage(name: string): string {
  return `\${${name}} would publish a value of the environment: GitHub keeps Actions variables in plain text for anyone who can read them, and forgeplan treats every reference not marked public as secret; put a secret under secrets, or mark a value that is not secret \${${name}:public}`;
}
const NAME = /^([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z]*))?$/;

function expand(
  text: string,
  lookup: (name: string) => string | undefined,
  problem: (message: string) => void,
): Omit<SensitiveString, "path"> {
  const values: EnvValue[] = [];
  const expanded = text.replace(
    REFERENCE,
    (match, reference: string | undefined, closed: string | undefined) => {
      if (match === "$${") return "${";
      const parsed = NAME.exec(reference ?? "");
      if (closed === "" || parsed === null) {
        problem(
          `malformed reference ${JSON.stringify(match)}: write \${NAME} with letters, digits and _ (or $\${ for a literal \${)`,
        );
        return match;
      }
      const [, name, modifier] = parsed as unknown as [string, string, string | undefined];
      if (modifier !== undefined && modifier !== PUBLIC) {
        problem(
          `unknown modifier ":${modifier}" in ${JSON.stringify(match)}: the only one is :${PUBLIC} (\${${name}:${PUBLIC}})`,
        );
        return match;
      }
      const found = lookup(name);
      if (found === undefined) return match;
      if (modifier === undefined) values.push({ name, value: found });
      return found;
    },
  );
  return { text: expanded, values };
}
