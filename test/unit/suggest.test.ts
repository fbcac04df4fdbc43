import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closest, unknownNameHint } from "../../src/config/suggest.js";

/** The suggestion as it was made before the bounded comparison: the whole table every time. */
function reference(word: string, candidates: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) =>
      Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
    );
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
          value = Math.min(value, d[i - 2]![j - 2]! + 1);
        }
        d[i]![j] = value;
      }
    }
    return d[a.length]![b.length]!;
  };
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const found = distance(word.toLowerCase(), candidate.toLowerCase());
    if (found < bestDistance) [best, bestDistance] = [candidate, found];
  }
  return bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

/**
 * closest() stops a comparison as soon as it cannot come within the allowed distance (issue #35,
 * item 11); what it suggests must not change for that.
 */
describe("closest", () => {
  const KEYS = ["enforce_admins", "allow_deletions", "required_status_checks", "has_wiki", "name"];

  it("finds a misspelling by one edit: a letter left out, added, changed or two swapped", () => {
    expect(closest("enforce_admin", KEYS)).toBe("enforce_admins");
    expect(closest("enforce_adminss", KEYS)).toBe("enforce_admins");
    expect(closest("allow_deletiens", KEYS)).toBe("allow_deletions");
    expect(closest("hsa_wiki", KEYS)).toBe("has_wiki");
    expect(closest("nmae", KEYS)).toBe("name");
  });

  it("counts a swap of two letters as one edit, not two", () => {
    // "ab" to "ba": Levenshtein 2, more than the 1 a two-letter word may differ by.
    expect(closest("ba", ["ab"])).toBe("ab");
    expect(closest("ba", ["xy"])).toBeUndefined();
  });

  it("ignores case, and returns the candidate as it is written", () => {
    expect(closest("ENFORCE_ADMINS", KEYS)).toBe("enforce_admins");
    expect(closest("Name", ["NAME"])).toBe("NAME");
  });

  it("keeps the first of equally close candidates, and an exact match over any before it", () => {
    expect(closest("cat", ["bat", "car", "cut"])).toBe("bat");
    expect(closest("cat", ["car", "bat"])).toBe("car");
    expect(closest("cat", ["bat", "cat", "car"])).toBe("cat");
    // A closer one later replaces a farther one first.
    expect(
      closest("required_status_chek", ["required_status_cxexx", "required_status_check"]),
    ).toBe("required_status_check");
  });

  it("allows a third of the word's length, at least one, and suggests nothing farther", () => {
    // 6 letters allow 2 edits.
    expect(closest("abcdef", ["abcdxy"])).toBe("abcdxy");
    expect(closest("abcdef", ["abcxyz"])).toBeUndefined();
    // Lengths that differ by more than allowed are never close.
    expect(closest("abc", ["abcdef"])).toBeUndefined();
    expect(closest("x", ["y"])).toBe("y");
    expect(closest("bogus", KEYS)).toBeUndefined();
    expect(closest("anything", [])).toBeUndefined();
  });

  it("gives the same answers after comparing words longer than any before (its rows grow)", () => {
    const long = "x".repeat(200);
    expect(closest(`${long}y`, [`${long}z`, long])).toBe(`${long}z`);
    expect(closest("enforce_admin", KEYS)).toBe("enforce_admins");
  });

  it("suggests what the whole table would, for any words", () => {
    const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "A", "_"), maxLength: 12 });
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 8 }), (typed, candidates) => {
        expect(closest(typed, candidates)).toBe(reference(typed, candidates));
      }),
      { numRuns: 2000 },
    );
  });

  it("explains an unknown name with the closest, else every allowed name", () => {
    expect(unknownNameHint("enforce_admin", KEYS)).toBe('did you mean "enforce_admins"?');
    expect(unknownNameHint("bogus", ["a", "b"])).toBe("expected one of: a, b");
    expect(unknownNameHint("bogus", [])).toBe("none are defined");
  });
});
