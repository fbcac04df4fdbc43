/**
 * How autolinks are written: `autolinks: {mode, items: {<key_prefix>: {url_template,
 * is_alphanumeric}}}`, the shape of `labels` (docs/kinds.md, "Autolinks", says why). GitHub has no update
 * for an autolink, so one that is written is managed whole: `is_alphanumeric` left out is GitHub's
 * default, true.
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type PrintBlock, type RuleProblem } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";

/**
 * GitHub's rules for a key prefix, as its 422 words them (quoted in
 * integrations/terraform-provider-github#3176): "key_prefix must only contain letters, numbers, or
 * .-_+=:/#" and "key_prefix must not end with a number".
 */
const keyPrefix = z
  .string()
  .regex(/^[A-Za-z0-9.=+:/#_-]+$/, {
    error: "a key prefix has only letters, digits and .-_+=:/# (GitHub's rule)",
  })
  .regex(/[^0-9]$/, { error: "a key prefix must not end with a digit (GitHub's rule)" });

const autolink = closed({
  url_template: z
    .string()
    .refine((text) => text.includes("<num>"), {
      error: "url_template must contain <num>, which stands for the reference",
    })
    .optional()
    .describe("The URL a reference links to, with <num> where the reference goes (required)."),
  is_alphanumeric: z
    .boolean()
    .optional()
    .describe("true (default): <num> matches letters, digits and -; false: digits only."),
});

const autolinksSchema = closed({
  mode: modeField("autolinks"),
  items: z
    .record(
      keyPrefix,
      orNull(autolink).describe(
        "The autolink of this key prefix, managed whole; null means no autolink of this prefix may exist.",
      ),
    )
    .optional()
    .describe("Autolinks by key prefix (compared as written)."),
});

export type AutolinkSettings = z.output<typeof autolink>;
export type Autolinks = z.output<typeof autolinksSchema>;

/** What defaults, profiles and an entry make together must name each autolink's URL. */
function autolinkRules(value: Autolinks): RuleProblem[] {
  return Object.entries(value.items ?? {}).flatMap(([prefix, settings]) =>
    settings !== null && settings.url_template === undefined
      ? [{ path: ["items", prefix], message: "an autolink needs its url_template" }]
      : [],
  );
}

function printAutolinks(value: Autolinks): PrintBlock[] {
  return [
    modeBlock("autolink", value.mode),
    ...Object.entries(value.items ?? {}).map(([prefix, settings]): PrintBlock => ({
      kind: "autolink",
      name: prefix,
      path: ["items", prefix],
      ...(settings !== null && settings.is_alphanumeric === undefined
        ? { defaults: [["is_alphanumeric", true]] }
        : {}),
    })),
  ];
}

export const autolinksSetting = defineSetting({
  key: "autolinks",
  schema: autolinksSchema.describe(
    "The repository's autolink references: mode (additive or authoritative) and items by key prefix.",
  ),
  rules: autolinkRules,
  // Authoritative mode is about the whole list: it is one setting, defined once per repository.
  defines: () => [{ id: "autolinks", path: [], what: "the autolink list" }],
  print: printAutolinks,
});
