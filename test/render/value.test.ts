import { describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { formatValue } from "../../src/render/index.js";

describe("formatValue", () => {
  it.each([
    ["a string, quoted", "main", '"main"'],
    ["a string with a newline, on one line", "a\nb", '"a\\nb"'],
    ["a number", 3, "3"],
    ["a boolean", false, "false"],
    ["null", null, "null"],
    ["an absent value", undefined, "(absent)"],
    ["an array", ["push", "pull_request"], '["push", "pull_request"]'],
    ["an empty array", [], "[]"],
    [
      "an object, keys sorted",
      { url: "https://x", enabled: true },
      '{enabled: true, url: "https://x"}',
    ],
    ["an object with an odd key", { "a b": 1, "x-y": 2 }, '{"a b": 1, x-y: 2}'],
    [
      "a nested value",
      { checks: [{ context: "ci", app_id: -1 }] },
      '{checks: [{app_id: -1, context: "ci"}]}',
    ],
    ["a secret", new Secret("hunter2", "HOOK_SECRET"), "(sensitive)"],
    ["a secret inside an object", { secret: new Secret("hunter2", "S") }, "{secret: (sensitive)}"],
    ["a secret reference", { $secret: "HOOK_SECRET" }, '{$secret: "HOOK_SECRET"}'],
  ])("renders %s", (_label, value, expected) => {
    expect(formatValue(value)).toBe(expected);
  });

  it("is the same for the same object built in another key order", () => {
    expect(formatValue({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe(
      formatValue({ a: [2, { c: 4, d: 3 }], b: 1 }),
    );
  });

  it("cuts long values at 120 characters with an ellipsis", () => {
    const rendered = formatValue("x".repeat(500));
    expect(rendered).toHaveLength(120);
    expect(rendered).toBe(`"${"x".repeat(118)}…`);
  });

  it("never splits an astral character when cutting", () => {
    const rendered = formatValue("🔒".repeat(200));
    expect(rendered.endsWith("…")).toBe(true);
    expect(rendered).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
