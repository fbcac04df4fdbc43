import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepMerge, mergeLayers } from "../../src/config/merge.js";
import { Secret } from "../../src/core/secret.js";

/**
 * The one merge policy of docs/configuration.md's "How settings merge", checked as properties: it is what loading
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

/**
 * Layers in which every key holds the same kind of value: under the mapping keys a mapping, under
 * the others anything but a mapping (a scalar, null, a list) — the domain docs/configuration.md says merging is
 * associative in.
 */
const MAPPING_KEYS = ["branch_protection", "main", "reviews", "__proto__"];
const PLAIN_KEYS = ["strict", "checks", "count", "enabled"];
const notMapping = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));
const { layer } = fc.letrec((tie) => ({
  layer: fc.record(
    {
      ...Object.fromEntries(
        MAPPING_KEYS.map((name) => [
          name,
          fc.oneof({ depthSize: "small" }, fc.constant({}), tie("layer")),
        ]),
      ),
      ...Object.fromEntries(PLAIN_KEYS.map((name) => [name, notMapping])),
    },
    { requiredKeys: [] },
  ),
}));

describe("the merge policy", () => {
  it("is associative where every key holds one kind of value: grouping does not matter", () => {
    fc.assert(
      fc.property(layer, layer, layer, (a, b, c) => {
        expect(deepMerge(deepMerge(a, b), c)).toEqual(deepMerge(a, deepMerge(b, c)));
      }),
    );
  });

  it("depends on grouping when a layer replaces a mapping and a later one writes a mapping again", () => {
    // Why layers are merged in one fixed order, never regrouped.
    const [a, b, c] = [{ main: { strict: true } }, { main: null }, { main: {} }];
    expect(deepMerge(deepMerge(a, b), c)).toEqual({ main: {} });
    expect(deepMerge(a, deepMerge(b, c))).toEqual({ main: { strict: true } });
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
