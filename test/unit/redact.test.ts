import { describe, expect, it } from "vitest";
import type { Change, Plan } from "../../src/core/plan.js";
import { MIN_SEARCHED_LENGTH, Redactor, variantsOf } from "../../src/core/redact.js";
import { code, escapeHtml, escapeInline } from "../../src/render/escape.js";
import { formatValue } from "../../src/render/value.js";

/** A value with a character every encoding changes: quote, ampersand, slash, space, underscore, <. */
const SECRET = 's3cr_t "q" & a/b <x>+=';

function redactorWith(value = SECRET): Redactor {
  const redactor = new Redactor();
  redactor.add(value, "HOOK_SECRET");
  return redactor;
}

function change(overrides: Partial<Change>): Change {
  return {
    address: "github/acme/api/webhook/https://hooks.example/h",
    kind: "webhook",
    action: "update",
    target: "github",
    scope: "acme/api",
    name: "https://hooks.example/h",
    diff: [],
    requests: [],
    ...overrides,
  };
}

describe("the redactor", () => {
  const forms: Record<string, string> = {
    raw: SECRET,
    "JSON-escaped": JSON.stringify(SECRET).slice(1, -1),
    "doubly JSON-escaped": JSON.stringify(JSON.stringify(SECRET)).slice(1, -1),
    encodeURIComponent: encodeURIComponent(SECRET),
    "lower-case percent-encoding": encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (hex) =>
      hex.toLowerCase(),
    ),
    "form-encoded": new URLSearchParams({ t: SECRET }).toString().slice(2),
    "markdown-escaped (forgeplan's renderer)": escapeInline(SECRET),
    "markdown inline code of a JSON value": code(formatValue(SECRET)),
    "markdown-escaped (every punctuation character)": SECRET.replace(/[!-/:-@[-`{-~]/g, "\\$&"),
    "HTML-escaped": escapeHtml(SECRET),
  };
  for (const [name, form] of Object.entries(forms)) {
    it(`replaces the ${name} form`, () => {
      const text = `before ${form} after`;
      expect(text).toContain(form);
      const redacted = redactorWith().redact(text);
      expect(redacted).toContain("(sensitive)");
      expect(redacted).not.toContain("s3cr");
    });
  }

  it("replaces a value the service cut short with an ellipsis", () => {
    const token = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";
    const redactor = redactorWith(token);
    expect(redactor.redact(`Bearer ${token.slice(0, 12)}…`)).toBe("Bearer (sensitive)");
    expect(
      redactor.redact(`Unexpected token, ..."t": ${token.slice(0, 10)}"... is not valid JSON`),
    ).toBe('Unexpected token, ..."t": (sensitive) is not valid JSON');
    // Fewer characters than a searched value needs are left alone: they could be anything.
    const short = `x ${token.slice(0, MIN_SEARCHED_LENGTH - 1)}…`;
    expect(redactor.redact(short)).toBe(short);
  });

  it("replaces a value whose whitespace a one-line message collapsed", () => {
    const key = "-----BEGIN KEY-----\nMIIEabc\n  def\n-----END KEY-----";
    expect(redactorWith(key).redact(`got ${key.replace(/\s+/g, " ")}!`)).toBe("got (sensitive)!");
  });

  it("is idempotent and leaves text without values alone", () => {
    const redactor = redactorWith();
    const once = redactor.redact(`a ${SECRET} b`);
    expect(redactor.redact(once)).toBe(once);
    expect(redactor.redact("nothing here")).toBe("nothing here");
  });

  it("does not search values shorter than the minimum, but searches the field they were put into", () => {
    const redactor = new Redactor();
    redactor.addField("https://hooks.example/h?env=1", [{ value: "1", source: "ENV" }]);
    expect(redactor.redact("1 create, 2 updates")).toBe("1 create, 2 updates");
    expect(redactor.redact("url https://hooks.example/h?env=1 set")).toBe("url (sensitive) set");
    expect(redactor.masks()).toEqual(["https://hooks.example/h?env=1"]);
  });

  it("keeps the readable rest of a field whose values are all long enough to search", () => {
    const redactor = new Redactor();
    redactor.addField("https://hooks.example/h?t=tok_12345678", [
      { value: "tok_12345678", source: "TOKEN" },
    ]);
    expect(redactor.redact("https://hooks.example/h?t=tok_12345678")).toBe(
      "https://hooks.example/h?t=(sensitive)",
    );
  });

  it("lists the forms of a value longest first, without duplicates", () => {
    const variants = variantsOf("a/b c");
    expect(new Set(variants).size).toBe(variants.length);
    expect(variants).toContain("a%2Fb%20c");
    expect(variants).toContain("a%2Fb+c");
    expect(variants[0]!.length).toBeGreaterThanOrEqual(variants[variants.length - 1]!.length);
  });

  it("redacts values deeply, sharing what did not change", () => {
    const redactor = redactorWith();
    const untouched = { a: ["x", { b: 1 }] };
    const input = { untouched, hit: { list: [`k=${SECRET}`] } };
    const output = redactor.redactValue(input);
    expect(output.untouched).toBe(untouched);
    expect(output.hit.list).toEqual(["k=(sensitive)"]);
    expect(input.hit.list[0]).toContain(SECRET);
  });

  it("marks diff entries that hold a sensitive value or a field, and redacts the rest of the plan", () => {
    const redactor = new Redactor();
    redactor.addField("https://collector.example/h?t=tok_ABCDEFGH", [
      { value: "tok_ABCDEFGH", source: "COLLECTOR_TOKEN" },
    ]);
    redactor.addField("release-1", [{ value: "1", source: "N" }]);
    const plan: Plan = {
      format_version: 1,
      changes: [
        change({
          address: "github/acme/api/webhook/https://collector.example/h?t=tok_ABCDEFGH",
          name: "https://collector.example/h?t=tok_ABCDEFGH",
          diff: [
            {
              path: "url",
              before: "https://old.example",
              after: "https://collector.example/h?t=tok_ABCDEFGH",
            },
            { path: "branch_filter", before: "*", after: "release-1" },
            { path: "active", before: false, after: true },
          ],
          error: { message: "echo: tok_ABCDEFGH" },
        }),
      ],
      summary: { create: 0, update: 1, delete: 0, report: 0, "no-op": 0 },
      errors: 1,
    };
    const shown = redactor.plan(plan).changes[0]!;
    expect(shown.address).toBe("github/acme/api/webhook/https://collector.example/h?t=(sensitive)");
    expect(shown.diff.map((entry) => entry.sensitive ?? false)).toEqual([true, true, false]);
    expect(shown.diff[2]).toBe(plan.changes[0]!.diff[2]);
    expect(shown.error!.message).toBe("echo: (sensitive)");
    expect(JSON.stringify(shown)).not.toContain("tok_ABCDEFGH");
  });

  it("returns the plan itself when it knows no values", () => {
    const plan: Plan = {
      format_version: 1,
      changes: [change({})],
      summary: { create: 0, update: 1, delete: 0, report: 0, "no-op": 0 },
      errors: 0,
    };
    expect(new Redactor().plan(plan)).toBe(plan);
  });

  it("wraps a writer", () => {
    let written = "";
    const output = redactorWith().writer({ write: (text) => (written += text), isTTY: true });
    output.write(`x ${SECRET}\n`);
    expect(written).toBe("x (sensitive)\n");
    expect(output.isTTY).toBe(true);
  });
});

describe("sealing text for the cache", () => {
  const digest = (text: string) => (text === SECRET ? "aa11" : "bb22");
  const body = JSON.stringify({
    url: `https://c.example/h?t=${encodeURIComponent(SECRET)}`,
    s: SECRET,
  });

  it("names the variable and a digest instead of the value, and puts the value back", () => {
    const redactor = redactorWith();
    const sealed = redactor.seal(body, digest)!;
    expect(sealed).not.toContain("s3cr");
    expect(sealed).toContain("(sensitive:HOOK_SECRET:");
    expect(sealed).toContain(":aa11)");
    expect(redactorWith().unseal(sealed, digest)).toBe(body);
  });

  it("does not put back a value that changed or is no longer known", () => {
    const sealed = redactorWith().seal(body, digest)!;
    expect(redactorWith("another value entirely").unseal(sealed, digest)).toBeUndefined();
    expect(new Redactor().unseal(sealed, digest)).toBeUndefined();
    const other = new Redactor();
    other.add(SECRET, "OTHER_NAME");
    expect(other.unseal(sealed, digest)).toBeUndefined();
  });

  it("refuses text that already looks like a placeholder, or holds a value cut short", () => {
    const redactor = redactorWith("tok_0123456789");
    expect(redactor.seal("(sensitive:X:0:ab)", digest)).toBeUndefined();
    expect(redactor.seal("message: tok_0123…", digest)).toBeUndefined();
    expect(redactor.seal("plain", digest)).toBe("plain");
  });
});
