/**
 * The longest prefix that fits: `render(kept)` builds the document with the first `kept` of `total`
 * parts (and a note about the rest when kept < total); its length must grow with `kept`. Returns the
 * whole document when it fits or when there is no limit, otherwise the largest kept count that fits,
 * so a cut only ever falls between parts.
 */
export function fitParts(
  total: number,
  render: (kept: number) => string,
  maxLength: number | undefined,
): string {
  const whole = render(total);
  if (maxLength === undefined || whole.length <= maxLength) return whole;
  let low = 0;
  let high = total - 1;
  if (render(low).length > maxLength) return wholeLines(render(low), maxLength);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (render(middle).length <= maxLength) low = middle;
    else high = middle - 1;
  }
  return render(low);
}

/** Only when even the header and the note are over the limit: the whole lines that fit. */
function wholeLines(text: string, maxLength: number): string {
  const end = text.lastIndexOf("\n", maxLength - 1);
  return end < 0 ? "" : text.slice(0, end + 1);
}
