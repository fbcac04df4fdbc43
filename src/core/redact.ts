import type { Change, DiffEntry, Plan } from "./plan.js";
import { isSecret, SENSITIVE } from "./secret.js";

/**
 * The run's redactor: it knows every sensitive value of the run (tokens, webhook secrets and
 * authorization headers, what `${VAR}` interpolations put into the config) and takes them out of
 * whatever forgeplan is about to write — terminal output, plan files, markdown, the job summary,
 * comments, annotations, cache files. One is built per run and handed to the edges that write.
 *
 * A value is found not only as written but in the forms output turns it into: JSON-escaped,
 * URL-encoded (encodeURIComponent, encodeURI and form encoding), markdown-escaped, HTML-escaped,
 * YAML single-quoted, with control characters made visible, with runs of whitespace collapsed, and
 * cut short with "…" or "...".
 */

/**
 * Values shorter than this are not searched for in text: "1", "true" or "main" would turn every
 * output into noise. Such a value is still hidden where forgeplan knows it was used — the whole
 * string it was interpolated into is searched instead, and a diff entry holding it prints
 * "(sensitive)" — but if it shows up elsewhere (in a server's message) it is printed.
 */
export const MIN_SEARCHED_LENGTH = 6;

/** What `add` and `addField` learn, and what `masks` and sealing work from. */
interface Item {
  /** The text searched for. */
  text: string;
  /** Names it for a cache placeholder: the environment variable(s) it came from. */
  id: string;
  /** `text` in every form output may turn it into, longest first. */
  variants: string[];
  /** Matches any variant (and, in `truncated`, a cut prefix of one). */
  pattern: RegExp;
  truncated: RegExp;
  /** A run of letters and digits every variant contains: a cheap test before the pattern. */
  anchor: string;
}

type Transform = (text: string) => string;

const json: Transform = (text) => JSON.stringify(text).slice(1, -1);
const uri: Transform = (text) => encodeURIComponent(text);
const uriLower: Transform = (text) =>
  encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
const uriWhole: Transform = (text) => encodeURI(text);
/** application/x-www-form-urlencoded, as URLSearchParams and HTML forms write it. */
const form: Transform = (text) => new URLSearchParams([["", text]]).toString().slice(1);
/** Control characters as the renderers show them (render/wording.ts `printable`). */
const printable: Transform = (text) =>
  // eslint-disable-next-line no-control-regex
  text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => {
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
/** The characters render/escape.ts `escapeInline` escapes, after `printable`. */
const markdown: Transform = (text) => printable(text).replace(/[\\`*_[\]<>&|~#!$^]/g, "\\$&");
/** Any other markdown writer: CommonMark lets every ASCII punctuation character be escaped. */
const markdownAll: Transform = (text) => text.replace(/[!-/:-@[-`{-~]/g, "\\$&");
const html: Transform = (text) =>
  printable(text).replace(
    /[&<>"']/g,
    (char) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char,
  );
const collapsed: Transform = (text) => text.replace(/\s+/g, " ");
const same: Transform = (text) => text;

/** How a value is written into a string: as it is, or encoded. */
const ENCODINGS: Transform[] = [
  same,
  json,
  (text) => json(json(text)),
  uri,
  uriLower,
  uriWhole,
  form,
  printable,
  // YAML's single-quoted style (export writes YAML) doubles the quote.
  (text) => text.replace(/'/g, "''"),
];
/** How that string is then shown: as it is, in markdown or HTML, or inside JSON. */
const PRESENTATIONS: Transform[] = [
  same,
  markdown,
  markdownAll,
  html,
  json,
  (text) => json(markdown(text)),
  (text) => json(markdownAll(text)),
];

/**
 * Every form of `text` the transforms produce, longest first (so a longer form is replaced whole).
 * Forms shorter than a searched value (whitespace collapsed can shorten one) are left out.
 */
export function variantsOf(text: string): string[] {
  const found = new Set<string>();
  for (const base of new Set([text, collapsed(text)])) {
    for (const encode of ENCODINGS) {
      let encoded: string;
      try {
        encoded = encode(base);
      } catch {
        // encodeURIComponent refuses lone surrogates: no URL can hold that form.
        continue;
      }
      for (const present of PRESENTATIONS) found.add(present(encoded));
    }
  }
  return [...found]
    .filter((variant) => variant.length >= MIN_SEARCHED_LENGTH)
    .sort((a, b) => b.length - a.length);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A prefix of `text`, at least `minimum` characters long: `ab(?:c(?:d)?)?` for "abcd" and 2. */
function prefixPattern(text: string, minimum: number): string {
  const chars = Array.from(text);
  const head = chars.slice(0, minimum).map(escapeRegExp).join("");
  const tail = chars
    .slice(minimum)
    .reverse()
    .reduce((inner, char) => `(?:${escapeRegExp(char)}${inner})?`, "");
  return head + tail;
}

function longestAlphanumericRun(text: string): string {
  return (text.match(/[A-Za-z0-9]+/g) ?? []).reduce(
    (longest, run) => (run.length > longest.length ? run : longest),
    "",
  );
}

function itemOf(text: string, id: string): Item {
  const variants = variantsOf(text);
  const alternatives = variants.map(escapeRegExp).join("|");
  // A cut value keeps at least its first MIN_SEARCHED_LENGTH characters before the ellipsis (or
  // the three dots config errors use), maybe with a closing quote between (as in JSON.parse's
  // messages: `"{"token": ghp_abcd"... is not valid JSON`).
  const cut = variants
    .filter((variant) => variant.length > MIN_SEARCHED_LENGTH)
    .map((variant) => prefixPattern(variant, MIN_SEARCHED_LENGTH))
    .join("|");
  return {
    text,
    id,
    variants,
    pattern: new RegExp(alternatives, "g"),
    truncated: new RegExp(cut === "" ? "(?!)" : `(?:${cut})["']?(?:…|\\.\\.\\.)`, "g"),
    anchor: longestAlphanumericRun(text),
  };
}

/** A sensitive value found in a text, and which of its forms it was (-1: cut short). */
interface Found {
  item: Item;
  variant: number;
}

/** Writes a cache placeholder for a found value, or reads one back (see `seal`/`unseal`). */
export type Digest = (text: string) => string;

const PLACEHOLDER_START = "(sensitive:";
const PLACEHOLDER = /\(sensitive:([^:()]*):(\d+):([0-9a-f]+)\)/g;

export class Redactor {
  /** Searched values by text; fields are searched only when they hold a value too short to search. */
  readonly #items = new Map<string, Item>();
  /** Sorted longest first, rebuilt after a change, so a field is replaced before a value inside it. */
  #ordered: Item[] | undefined;
  /** Strings sensitive values were interpolated into: diff values equal to one print "(sensitive)". */
  readonly #fields = new Set<string>();

  /**
   * A sensitive value — a token, a webhook secret, an environment variable's value — and the
   * variable it came from (named in cache placeholders, never printed with the value).
   */
  add(value: string, source: string): void {
    if (value.length >= MIN_SEARCHED_LENGTH) this.#search(value, source);
  }

  /**
   * A config string that sensitive values were interpolated into, with those values. The field is
   * searched as a whole when one of the values is too short to be searched on its own.
   */
  addField(field: string, values: ReadonlyArray<{ value: string; source: string }>): void {
    for (const { value, source } of values) this.add(value, source);
    if (field === "") return;
    this.#fields.add(field);
    const hidden = values.some(({ value }) => value !== "" && value.length < MIN_SEARCHED_LENGTH);
    if (hidden && field.length >= MIN_SEARCHED_LENGTH) {
      this.#search(field, values.map(({ source }) => source).join("+"));
    }
  }

  /** The values to register with `::add-mask::`: those searched in text, as written. */
  masks(): string[] {
    return [...this.#items.keys()];
  }

  /** `text` with every sensitive value (in any of its forms) replaced by "(sensitive)". */
  redact(text: string): string {
    return this.#replace(text, () => SENSITIVE);
  }

  /** Whether `text` holds a sensitive value, or is a string one was interpolated into. */
  holds(text: string): boolean {
    return this.#fields.has(text) || this.redact(text) !== text;
  }

  /** A deep copy of `value` with every string redacted; unchanged parts are shared, not copied. */
  redactValue<T>(value: T): T {
    return this.#items.size === 0 ? value : (this.#walk(value) as T);
  }

  /**
   * The plan as it may be shown or saved: a diff entry whose value holds a sensitive value is
   * marked sensitive (it is still compared; only its values are hidden), then every string is
   * redacted — addresses, messages from the service, notes.
   */
  plan(plan: Plan): Plan {
    if (this.#items.size === 0 && this.#fields.size === 0) return plan;
    return { ...plan, changes: plan.changes.map((change) => this.change(change)) };
  }

  change(change: Change): Change {
    if (this.#items.size === 0 && this.#fields.size === 0) return change;
    const marked = change.diff.some((entry) => !entry.sensitive && this.#diffHolds(entry))
      ? {
          ...change,
          diff: change.diff.map((entry) =>
            !entry.sensitive && this.#diffHolds(entry) ? { ...entry, sensitive: true } : entry,
          ),
        }
      : change;
    return this.redactValue(marked);
  }

  /** Wraps a terminal-like output so everything written through it is redacted first. */
  writer(output: { write(text: string): void; readonly isTTY: boolean }): {
    write(text: string): void;
    readonly isTTY: boolean;
  } {
    return { write: (text) => output.write(this.redact(text)), isTTY: output.isTTY };
  }

  /**
   * For files forgeplan reads back (the conditional-request cache): each sensitive value becomes a
   * placeholder naming the variable it came from, which form it was in, and `digest` of the value,
   * so `unseal` can put it back. Undefined when the text already holds something that looks like a
   * placeholder (it could not be told apart from ours).
   */
  seal(text: string, digest: Digest): string | undefined {
    if (text.includes(PLACEHOLDER_START)) return undefined;
    let cut = false;
    const sealed = this.#replace(text, ({ item, variant }) => {
      // A value cut short cannot be put back as it was: such a text is not kept at all.
      if (variant < 0) cut = true;
      return `${PLACEHOLDER_START}${encodeURIComponent(item.id)}:${variant}:${digest(item.text)})`;
    });
    return cut ? undefined : sealed;
  }

  /**
   * The sealed text with each placeholder replaced by the value it stood for — only when a value
   * known now has the same source and digest. Undefined otherwise: the value changed (or is not
   * set), and restoring another one would make a stale answer look current.
   */
  unseal(text: string, digest: Digest): string | undefined {
    if (!text.includes(PLACEHOLDER_START)) return text;
    let missing = false;
    const restored = text.replace(PLACEHOLDER, (_match, id: string, variant: string, hash) => {
      const item = [...this.#items.values()].find(
        (candidate) => encodeURIComponent(candidate.id) === id && digest(candidate.text) === hash,
      );
      const form = item?.variants[Number(variant)];
      if (form === undefined) missing = true;
      return form ?? "";
    });
    return missing ? undefined : restored;
  }

  #search(text: string, id: string): void {
    if (this.#items.has(text)) return;
    this.#items.set(text, itemOf(text, id));
    this.#ordered = undefined;
  }

  #replace(text: string, by: (found: Found) => string): string {
    if (this.#items.size === 0 || text === "") return text;
    this.#ordered ??= [...this.#items.values()].sort((a, b) => b.text.length - a.text.length);
    // Most texts hold no value at all: say so with a few substring tests, allocating nothing.
    const cut = text.includes("…") || text.includes("...");
    if (!cut && this.#ordered.every((item) => item.anchor !== "" && !text.includes(item.anchor))) {
      return text;
    }
    // What was already replaced stays as it is, so redacting twice changes nothing more.
    return text
      .split(SENSITIVE)
      .map((part) => {
        let result = part;
        for (const item of this.#ordered!) {
          if (item.anchor === "" || result.includes(item.anchor)) {
            result = result.replace(item.pattern, (match) =>
              by({ item, variant: item.variants.indexOf(match) }),
            );
          }
          if (result.includes("…") || result.includes("...")) {
            result = result.replace(item.truncated, () => by({ item, variant: -1 }));
          }
        }
        return result;
      })
      .join(SENSITIVE);
  }

  /** Redacts every string inside `value`; copies only the objects and arrays on a changed path. */
  #walk(value: unknown): unknown {
    if (typeof value === "string") return this.redact(value);
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((item, index) => {
        const redacted = this.#walk(item);
        if (redacted !== item) copy ??= value.slice();
        if (copy !== undefined) copy[index] = redacted;
      });
      return copy ?? value;
    }
    if (value === null || typeof value !== "object" || isSecret(value)) return value;
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    let copy: Record<string, unknown> | undefined;
    const record = value as Record<string, unknown>;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const inner = record[key];
      const redacted = this.#walk(inner);
      if (redacted !== inner) copy ??= { ...value };
      // defineProperty, so a key named "__proto__" stays a plain key.
      if (copy !== undefined) {
        Object.defineProperty(copy, key, {
          value: redacted,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return copy ?? value;
  }

  #diffHolds(entry: DiffEntry): boolean {
    return this.#valueHolds(entry.before) || this.#valueHolds(entry.after);
  }

  #valueHolds(value: unknown): boolean {
    if (typeof value === "string") return this.holds(value);
    if (Array.isArray(value)) return value.some((item) => this.#valueHolds(item));
    if (value !== null && typeof value === "object" && !isSecret(value)) {
      return Object.values(value).some((item) => this.#valueHolds(item));
    }
    return false;
  }
}
