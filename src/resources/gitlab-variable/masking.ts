/**
 * GitLab's rules for a value it masks (app/models/concerns/ci/maskable.rb): `REGEX =
 * %r{\A[a-zA-Z0-9_+=/@:.~-]{8,}\z}` ("Characters must be from the Base64 alphabet (RFC4648) with
 * the addition of '@', ':', '.', and '~'"), and for a raw variable `MASK_AND_RAW_REGEX =
 * %r{\A\S{8,}\z}` ("Single line", "No spaces", "Minimal length of 8 characters"). The reason
 * given never quotes the value.
 */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
const MASKABLE_RAW = /^\S{8,}$/;

/** Why GitLab would refuse to mask the value, or undefined. */
export function maskingProblem(value: string, raw: boolean): string | undefined {
  if ((raw ? MASKABLE_RAW : MASKABLE).test(value)) return undefined;
  const rule = raw
    ? "GitLab masks a raw value of 8 or more characters without whitespace"
    : "GitLab masks only values of 8 or more characters from a-z A-Z 0-9 _ + = / @ : . ~ - (a raw value: any but whitespace)";
  const why =
    value.length < 8
      ? "it is shorter than 8 characters"
      : raw
        ? "it holds whitespace"
        : "it holds other characters";
  return `${why}; ${rule}`;
}
