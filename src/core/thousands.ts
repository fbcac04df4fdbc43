/**
 * A number with thousands separators, as toLocaleString("en-US") writes it. A whole number is
 * written without it: a run's first toLocaleString starts ICU, some 25–30 ms of CPU, for a comma.
 */
export function thousands(value: number): string {
  // Past the safe integers String() may write an exponent; -0 is written "-0".
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString("en-US");
  return String(value).replace(/\B(?=(\d{3})+$)/g, ",");
}
