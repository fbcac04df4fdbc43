import type { Path } from "./errors.js";
import { setKey } from "./merge.js";

/** Keys whose values are secrets: they must be exactly `${NAME}` and stay unexpanded until resolution. */
export const SECRET_KEYS: ReadonlySet<string> = new Set(["secret", "authorization_header"]);

export const ENV_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

export interface InterpolationProblem {
  path: Path;
  message: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Replaces `${NAME}` in every string value with the environment variable NAME (`$${` writes a
 * literal `${`). Values under secret keys are only checked, not expanded: the resolver turns them
 * into Secret objects so the value itself never sits in a plain string.
 */
export function interpolate(
  value: unknown,
  env: Env,
): { value: unknown; problems: InterpolationProblem[] } {
  const problems: InterpolationProblem[] = [];
  const walk = (node: unknown, path: Path): unknown => {
    if (typeof node === "string") {
      const key = path[path.length - 1];
      if (typeof key === "string" && SECRET_KEYS.has(key)) {
        const name = ENV_REFERENCE.exec(node)?.[1];
        if (name !== undefined && env[name] === undefined) {
          problems.push({ path, message: `environment variable ${name} is not set` });
        }
        return node;
      }
      return expand(node, env, (message) => problems.push({ path, message }));
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, [...path, index]));
    if (node !== null && typeof node === "object") {
      const result: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node))
        setKey(result, key, walk(child, [...path, key]));
      return result;
    }
    return node;
  };
  return { value: walk(value, []), problems };
}

const REFERENCE = /\$\$\{|\$\{([^}]*)(\}?)/g;

function expand(text: string, env: Env, problem: (message: string) => void): string {
  if (!text.includes("${")) return text;
  return text.replace(REFERENCE, (match, name: string | undefined, closed: string | undefined) => {
    if (match === "$${") return "${";
    if (closed === "" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name ?? "")) {
      problem(
        `malformed reference ${JSON.stringify(match)}: write \${NAME} with letters, digits and _ (or $\${ for a literal \${)`,
      );
      return match;
    }
    const found = env[name!];
    if (found === undefined) {
      problem(`environment variable ${name} is not set`);
      return match;
    }
    return found;
  });
}
