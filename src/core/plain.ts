/**
 * A mapping as JSON and YAML know it: an object literal (or one without a prototype), never an array,
 * a class instance such as `Secret`, or null. Merging, diffing and redacting all walk values with this
 * one test, so a `Secret` is always a value to keep whole, never a mapping to take apart.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
