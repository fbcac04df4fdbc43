import { MIN_SEARCHED_LENGTH, Redactor } from "../core/redact.js";
import { SENSITIVE } from "../core/secret.js";
import type { ConfigError, Origin } from "./errors.js";

/** A string a `${NAME}` not marked public was interpolated into, where it was written. */
export interface InterpolatedField {
  at: Origin;
  /** The string after replacement. */
  text: string;
  /** The values interpolated into it. */
  values: readonly string[];
}

/**
 * The loader's errors as the library hands them out: every value an environment variable put into
 * the config stands as "(sensitive)", as it would in the CLI's output, so a program that logs the
 * errors of `loadDesiredState` logs no secret. A value long enough to search for is taken out of
 * every message, in every form a message may quote it in; a shorter one ("1", "yes") only from the
 * messages about the place it was written, where a rule quoting the value is certain to be quoting
 * this one (elsewhere, "1" is as likely a count or a line).
 */
export function maskInterpolated(
  errors: ConfigError[],
  fields: readonly InterpolatedField[],
  /** Values of secret keys' references, which the loader checks but never expands. */
  secrets: readonly string[] = [],
): ConfigError[] {
  if (fields.length === 0 && secrets.length === 0) return errors;
  const everywhere = new Redactor();
  const here = new Map<string, string[]>();
  for (const secret of secrets) everywhere.add(secret, "secret");
  for (const field of fields) {
    everywhere.addField(
      field.text,
      field.values.map((value) => ({ value, source: "value" })),
    );
    const key = positionKey(field.at);
    here.set(key, [...(here.get(key) ?? []), field.text, ...field.values]);
  }
  return errors.map((error) => {
    let message = everywhere.redact(error.message);
    for (const text of here.get(positionKey(error)) ?? []) message = withoutShort(message, text);
    return message === error.message ? error : { ...error, message };
  });
}

function positionKey(at: { file: string; line: number; column: number }): string {
  return `${at.file}:${at.line}:${at.column}`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `message` with `text` replaced where it stands as a value: quoted, or not inside a longer word
 * ("refs/heads/x" holds the value "x"; "index" does not).
 */
function withoutShort(message: string, text: string): string {
  if (text === "" || text.length >= MIN_SEARCHED_LENGTH) return message;
  const quoted = JSON.stringify(text).slice(1, -1);
  const bare = new RegExp(
    `(?<![A-Za-z0-9_])(?:${escapeRegExp(quoted)}|${escapeRegExp(text)})(?![A-Za-z0-9_])`,
    "g",
  );
  return message.replace(bare, SENSITIVE);
}
