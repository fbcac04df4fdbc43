import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepMerge, mergeLayers } from "../../src/config/merge.js";
import { Secret } from "../../src/core/secret.js";

/**
 * The one merge policy of README's "How settings merge", checked as properties: it is what loading
 * (defaults → profiles → entry) and planning (every entry that selects a repository) both use.
 */
const key = fc.constantFrom("a", "b", "c", "main", "hooks", "__proto__");
const scalar = fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 3 }), fc.constant(null));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    scalar,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(key, tie("value"), { maxKeys: 4 }),
  ),
}));
const mapping = fc.dictionary(key, value, { maxKeys: 4 });

describe("the merge policy", () => {
  it("is associative: layers merge the same however they are grouped", () => {
    fc.assert(
      fc.property(mapping, mapping, mapping, (a, b, c) => {
        expect(deepMerge(deepMerge(a, b), c)).toEqual(deepMerge(a, deepMerge(b, c)));
      }),
    );
  });

  it("lets a list, null or a scalar replace whatever was there, and merges mappings key by key", () => {
    fc.assert(
      fc.property(mapping, key, value, (base, name, over) => {
        const merged = deepMerge(base, { [name]: over }) as Record<string, unknown>;
        const before = Object.hasOwn(base, name) ? base[name] : undefined;
        const mergesInside =
          over !== null &&
          typeof over === "object" &&
          !Array.isArray(over) &&
          before !== null &&
          typeof before === "object" &&
          !Array.isArray(before);
        if (!mergesInside) expect(merged[name]).toEqual(over);
        for (const other of Object.keys(base)) {
          if (other !== name) expect(merged[other]).toEqual(base[other]);
        }
      }),
    );
  });

  it("replaces lists instead of joining them, at any depth", () => {
    expect(
      mergeLayers([
        { label: "defaults", source: null, path: [], value: { w: { hooks: [1, 2], mode: "x" } } },
        { label: "entry", source: null, path: [], value: { w: { hooks: [3] } } },
      ]),
    ).toEqual({ w: { hooks: [3], mode: "x" } });
  });

  it("keeps a secret whole: it is a value, never a mapping to merge into", () => {
    const secret = new Secret("s3cr3t", "HOOK_SECRET");
    const merged = deepMerge({ hook: { secret: { nested: 1 } } }, { hook: { secret } }) as {
      hook: { secret: unknown };
    };
    expect(merged.hook.secret).toBe(secret);
  });

  it("shares nothing with its inputs", () => {
    const base = { a: { list: [1] } };
    const merged = deepMerge(base, { b: 1 }) as { a: { list: number[] } };
    merged.a.list.push(2);
    expect(base.a.list).toEqual([1]);
  });
});
