/**
 * A variable of the environment, or undefined: only the environment's own variables, each a string.
 * An environment is a plain object, so a lookup by a name it does not have would otherwise find what
 * every object inherits (`${constructor}`, `${__proto__}`, `${toString}`: functions and objects,
 * never a variable's value).
 */
export function envValue(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string | undefined {
  if (!Object.hasOwn(env, name)) return undefined;
  const value = env[name];
  return typeof value === "string" ? value : undefined;
}
