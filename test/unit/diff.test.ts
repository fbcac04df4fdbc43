import { describe, expect, it } from "vitest";
import { diffValues } from "../../src/resources/diff.js";

describe("diffValues", () => {
  it("reports nested fields by dotted path", () => {
    expect(diffValues({ a: { b: 1, c: 2 } }, { a: { b: 1, c: 3 } })).toEqual([
      { path: "a.c", before: 2, after: 3 },
    ]);
  });

  it("reports a changed array as one whole value", () => {
    expect(diffValues({ list: ["a", "b"] }, { list: ["a", "c", "d"] })).toEqual([
      { path: "list", before: ["a", "b"], after: ["a", "c", "d"] },
    ]);
  });

  it("reports fields that appear and disappear without the missing side", () => {
    expect(diffValues({ gone: 1 }, { added: 2 })).toEqual([
      { path: "gone", before: 1 },
      { path: "added", after: 2 },
    ]);
  });

  it("shows a section that appears or disappears field by field", () => {
    expect(diffValues({ r: null }, { r: { a: 1, b: { c: [2] }, d: [] } })).toEqual([
      { path: "r.a", after: 1 },
      { path: "r.b.c", after: [2] },
    ]);
    expect(diffValues({ r: { a: 1 } }, { r: null })).toEqual([{ path: "r.a", before: 1 }]);
  });

  it("keeps an emptied section distinct from no section", () => {
    expect(diffValues({ r: { users: [] } }, { r: null })).toEqual([
      { path: "r", before: { users: [] }, after: null },
    ]);
  });

  it("finds no difference between equal values", () => {
    expect(diffValues({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });
});
