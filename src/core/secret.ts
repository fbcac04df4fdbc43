import { inspect } from "node:util";

const REDACTED = "(sensitive)";

/**
 * A value that must never reach output: tokens, webhook secrets, authorization headers.
 * Every way a value is usually printed (String(), JSON.stringify, util.inspect, template strings)
 * yields "(sensitive)"; only `reveal()` gives the real value, and only the HTTP edge calls it.
 */
export class Secret {
  readonly #value: string;
  /** Where the value came from (an environment variable name), safe to print. */
  readonly source: string;

  constructor(value: string, source: string) {
    this.#value = value;
    this.source = source;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

export function isSecret(value: unknown): value is Secret {
  return value instanceof Secret;
}

export const SENSITIVE = REDACTED;
