/**
 * The step's job summary within what GitHub keeps. The limit is in bytes, 1 MiB per step ("each step
 * is restricted to a maximum size of 1MiB. [...] If more than 1MiB of content is added for a step,
 * then the upload for the step will fail and an error annotation will be created", GitHub's
 * workflow-commands reference, "Step isolation and limits"): the whole summary is lost, not its
 * tail ("$GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of 1024k, got 1962k",
 * maplibre/flutter-maplibre-gl actions run 9454698428). A plan of names in a script of three bytes
 * a character is three times its length in bytes, so the limit is checked on the bytes written.
 */
export const STEP_SUMMARY_BYTES = 1024 * 1024;

export const SUMMARY_CUT_NOTE =
  "\n\n_The rest is cut here: GitHub keeps at most 1 MiB of a step's summary. The step's log has all of it._\n";

function bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * The summary `render` makes when asked for at most `maxLength` characters, asked again with a
 * smaller length while its bytes are over `limit`; a text that still does not fit (one that does
 * not take a length, such as apply's report) is cut after its last whole line that fits, with a
 * note saying so.
 */
export function fitStepSummary(
  render: (maxLength: number) => string,
  limit: number = STEP_SUMMARY_BYTES,
): string {
  let maxLength = limit;
  let text = render(maxLength);
  // Each try scales the length by the bytes a character took: UTF-16 units take at most three
  // bytes each, so a few tries settle, and what is left over is cut by lines below.
  for (let tries = 0; tries < 4 && bytes(text) > limit; tries++) {
    maxLength = Math.floor(((maxLength * limit) / bytes(text)) * 0.98);
    text = render(maxLength);
  }
  return bytes(text) <= limit ? text : cutAtLine(text, limit);
}

function cutAtLine(text: string, limit: number): string {
  const room = limit - bytes(SUMMARY_CUT_NOTE);
  const encoded = Buffer.from(text, "utf8").subarray(0, Math.max(room, 0));
  // A newline byte is always a whole character in UTF-8, so the cut never splits one.
  const end = encoded.lastIndexOf(0x0a);
  return `${end < 0 ? "" : encoded.subarray(0, end + 1).toString("utf8")}${SUMMARY_CUT_NOTE}`;
}
