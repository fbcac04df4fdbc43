import { FALSE, TRUE } from "./request-parameters.js";

/**
 * A parameter's value as Grape hands it to an endpoint once request-parameters.ts has checked it:
 * booleans and integers also arrive as query strings ("true", "2"), coerced as Grape's types
 * (dry-types `Params::Bool`, `Params::Integer`) coerce them. For areas whose endpoints read the
 * values themselves; a value the check let through that does not coerce is left as it came.
 */

export function grapeBoolean(value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (TRUE.has(value.toLowerCase())) return true;
  if (FALSE.has(value.toLowerCase())) return false;
  return value;
}

export function grapeInteger(value: unknown): unknown {
  return typeof value === "string" && /^[+-]?\d+$/.test(value.trim()) ? Number(value) : value;
}

/** An array of integers (`user_ids[]=1&user_ids[]=2` or `"1,2"` arrive as strings). */
export function grapeIntegers(value: unknown): number[] {
  const list = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : [];
  return list.map((item) => Number(grapeInteger(item))).filter((item) => Number.isInteger(item));
}
