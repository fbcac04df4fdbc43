/** Bounds that keep hostile input from exhausting memory, time or the stack. */
export const LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  /** Far deeper than any real config, far shallower than what overflows the YAML composer's stack. */
  maxDepth: 64,
  /** How many values aliases may add to a document once expanded (alias bombs grow exponentially). */
  maxAliasValues: 1_000_000,
};
