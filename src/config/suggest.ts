/**
 * The closest candidate to a misspelt word, if one is close enough to be a likely typo. Only a
 * distance within the allowed one matters, so each comparison stops as soon as it cannot get there:
 * a file with a hundred thousand unknown keys asks this for every one of them against every known
 * key (docs/configuration.md, "Errors").
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  const allowed = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    // Only a closer one replaces the best so far: the first of equally close ones is kept.
    const limit = Math.min(allowed, bestDistance - 1);
    if (limit < 0) break;
    const distance = editDistance(lower, candidate.toLowerCase(), limit);
    if (distance <= limit) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Explains an unknown name: a "did you mean" when one is close, otherwise the names that are allowed. */
export function unknownNameHint(word: string, candidates: readonly string[]): string {
  const suggestion = closest(word, candidates);
  if (suggestion !== undefined) return `did you mean "${suggestion}"?`;
  return candidates.length === 0 ? "none are defined" : `expected one of: ${candidates.join(", ")}`;
}

/** Three rows of the distance table, reused by every comparison (grown when a word is longer). */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)] as const;

/**
 * Levenshtein distance with transpositions counted as one edit (optimal string alignment), or
 * `bound + 1` as soon as it is certain to exceed `bound`: words whose lengths differ by more, or a
 * row of the table whose every cell does.
 */
function editDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const cols = b.length + 1;
  if (rows[0].length < cols) {
    rows = [new Int32Array(cols * 2), new Int32Array(cols * 2), new Int32Array(cols * 2)];
  }
  let [before, previous, current] = rows;
  for (let j = 0; j < cols; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let smallest = i;
    for (let j = 1; j < cols; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current[j] = value;
      if (value < smallest) smallest = value;
    }
    if (smallest > bound) return bound + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}
