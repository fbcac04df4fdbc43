import { Secret } from "../core/secret.js";

/**
 * The body as it goes on the wire: `Secret` values anywhere inside are revealed here, at the last
 * moment, so callers can hand the client bodies that print as "(sensitive)" everywhere else.
 */
export function revealSecrets(value: unknown): unknown {
  if (value instanceof Secret) return value.reveal();
  if (Array.isArray(value)) return value.map(revealSecrets);
  if (
    typeof value === "object" &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revealSecrets(v)]));
  }
  return value;
}
