import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Change, makePlan } from "../../src/core/plan.js";
import { planFileText } from "../../src/core/plan-file.js";
import { Secret } from "../../src/core/secret.js";

/**
 * A plan's file is written from the changes as they are, ordering only what the file orders: it
 * must be byte for byte what it is when every change is made plain JSON first (a Secret as
 * "(sensitive)", undefined members gone), which is how it was written before.
 */
const leaf = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.string({ maxLength: 6 }),
  fc.string({ maxLength: 6 }).map((text) => new Secret(text, "TOKEN")),
);
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "before", "path", "message", "z"), tie("value"), {
      maxKeys: 3,
    }),
  ),
}));
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
// Keys in another order than the file's, and some the file does not know, to be placed after.
const diffEntry = fc.record(
  {
    after: value,
    before: value,
    path: fc.string({ maxLength: 8 }),
    sensitive: maybe(fc.boolean()),
    preexisting: maybe(fc.constant(true)),
    extra: value,
  },
  { requiredKeys: ["path"] },
);
const change = fc.record(
  {
    notes: maybe(fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 })),
    requests: fc.array(
      fc.record(
        {
          body: value,
          path: fc.constantFrom("/repos/acme/api", "/repos/acme/api/hooks/1"),
          method: fc.constantFrom("GET", "PATCH", "DELETE"),
          expect: value,
        },
        { requiredKeys: ["method", "path"] },
      ),
      { maxLength: 2 },
    ),
    diff: fc.array(diffEntry, { maxLength: 3 }),
    name: fc.string({ maxLength: 5 }),
    scope: fc.constantFrom("acme/api", "acme"),
    target: fc.constant("github"),
    action: fc.constantFrom("create", "update", "delete", "report", "no-op"),
    kind: fc.constantFrom("webhook", "label"),
    address: fc.string({ minLength: 1, maxLength: 8 }),
    error: maybe(
      fc.record(
        { status: maybe(fc.integer()), message: fc.string(), request: maybe(fc.string()) },
        { requiredKeys: ["message"] },
      ),
    ),
    unknown_later: value,
  },
  { requiredKeys: ["address", "kind", "action", "target", "scope", "name", "diff", "requests"] },
) as fc.Arbitrary<unknown> as fc.Arbitrary<Change>;

describe("the plan file's JSON", () => {
  it("is the same bytes as writing every change made plain JSON first", () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 4 }), (changes) => {
        const plain = JSON.parse(JSON.stringify(changes)) as Change[];
        expect(planFileText(makePlan(changes))).toBe(planFileText(makePlan(plain)));
      }),
      { seed: 20261129, numRuns: 300 },
    );
  });

  it("hides the sides a sensitive diff entry has, and adds none it lacks", () => {
    const secretChange = {
      address: "a",
      kind: "webhook",
      action: "update",
      target: "github",
      scope: "acme/api",
      name: "x",
      diff: [
        { path: "secret", before: undefined, after: new Secret("s3cret", "S"), sensitive: true },
      ],
      requests: [],
    } as Change;
    const text = planFileText(makePlan([secretChange]));
    const [entry] = (JSON.parse(text) as { changes: [{ diff: unknown[] }] }).changes[0].diff;
    expect(entry).toEqual({ path: "secret", after: "(sensitive)", sensitive: true });
    expect(text).not.toContain("s3cret");
  });
});
