import { isSecret, SENSITIVE } from "../core/secret.js";
import { isPlainObject } from "../core/plain.js";

/** Values longer than this are cut with an ellipsis in text and markdown; json always has them whole. */
export const MAX_VALUE_LENGTH = 120;

const ABSENT = "(absent)";
const BARE_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * A short, one-line, stable rendering of a diff value: strings quoted (JSON escapes, so control
 * characters and newlines stay visible and on one line), arrays as `[a, b]`, objects as `{k: v}` with
 * keys sorted so the same value always renders the same, `undefined` as `(absent)`, secrets as
 * `(sensitive)`.
 */
export function formatValue(value: unknown, maxLength: number = MAX_VALUE_LENGTH): string {
  return truncate(render(value), maxLength);
}

function render(value: unknown): string {
  if (value === undefined) return ABSENT;
  if (value === null) return "null";
  if (isSecret(value)) return SENSITIVE;
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(render).join(", ")}]`;
  if (isPlainObject(value)) {
    const entries = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${BARE_KEY.test(key) ? key : JSON.stringify(key)}: ${render(value[key])}`);
    return `{${entries.join(", ")}}`;
  }
  return String(value);
}

function truncate(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  // Cut by code points so an emoji or other astral character is never split in half.
  return `${Array.from(text)
    .slice(0, maxLength - 1)
    .join("")}…`;
}

/**
 * A deep copy with every `Secret` replaced by "(sensitive)" and `undefined` properties dropped, as JSON
 * would. SecretRef placeholders (`{"$secret": "ENV"}`) are plain data and pass through unchanged: they
 * name where apply finds the secret, they are not the secret.
 */
export function redact(value: unknown): unknown {
  if (isSecret(value)) return SENSITIVE;
  if (Array.isArray(value)) return value.map(redact);
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) copy[key] = redact(item);
    }
    return copy;
  }
  return value;
}
