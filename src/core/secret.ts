import { inspect } from "node:util";

const REDACTED = "(sensitive)";

/**
 * A value that must never reach output: tokens, webhook secrets, authorization headers.
 * Every way a value is usually printed (String(), JSON.stringify, util.inspect, template strings)
 * yields "(sensitive)"; only `reveal()` gives the real value, and it is called only where a value
 * leaves the process — the forge client's Authorization header and request bodies, and apply, which
 * puts a secret in place of its reference in a planned body just before sending it — and where the
 * run's redactor learns a value so it can take it out of every output.
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
