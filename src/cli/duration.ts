import { CliError } from "./io.js";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration flag such as `90s`, `15m`, `1h30m` or `500ms` into milliseconds. A bare number
 * is refused: whether `15` means seconds or minutes is exactly the ambiguity a unit removes.
 */
export function parseDuration(
  command: string,
  flag: string,
  value: string | undefined,
): number | undefined {
  if (value === undefined) return undefined;
  const parts = [...value.matchAll(/(\d+)(ms|s|m|h)/g)];
  const whole = parts.map((part) => part[0]).join("");
  if (parts.length === 0 || whole !== value) {
    throw new CliError(
      `${command}: --${flag} expects a duration such as 90s, 15m or 1h30m, got '${value}'`,
    );
  }
  return parts.reduce(
    (total, [, amount, unit]) => total + Number(amount) * (UNIT_MS[unit ?? ""] ?? 0),
    0,
  );
}
