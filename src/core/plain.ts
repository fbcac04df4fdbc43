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

/** JSON with every mapping's keys sorted, so equal data always gives the same text (digests). */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (isPlainObject(inner)) {
      return Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)));
    }
    return inner;
  });
}
