/**
 * How labels are written in the configuration: `labels: {mode, items: {<name>: {color,
 * description, previously}}}`. Items are a mapping keyed by name, so defaults, profiles and an
 * entry merge label by label; `null` says a label must not exist.
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type PrintBlock, type RuleProblem } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";

/** "name is too long (maximum is 50 characters)" (GitHub's answer, quoted in github/docs#32156). */
export const MAX_NAME_CHARACTERS = 50;
/** "Must be 100 characters or fewer." (the create and update operations' request schemas). */
export const MAX_DESCRIPTION_CHARACTERS = 100;

const characters = (text: string) => [...text].length;

export const labelName = z
  .string()
  .refine((text) => text.trim() !== "", { error: "a label name must not be blank" })
  .refine((text) => characters(text) <= MAX_NAME_CHARACTERS, {
    error: `a label name has at most ${MAX_NAME_CHARACTERS} characters`,
  });

const label = closed({
  color: z
    .string()
    .regex(/^#?[0-9a-fA-F]{6}$/, { error: "expected six hex digits, with or without #: d73a4a" })
    .optional()
    .describe(
      "Six hex digits, with or without # (compared case-insensitively); left out, the live colour is kept (a new label gets GitHub's ededed).",
    ),
  description: z
    .string()
    .refine((text) => characters(text) <= MAX_DESCRIPTION_CHARACTERS, {
      error: `a label description has at most ${MAX_DESCRIPTION_CHARACTERS} characters`,
    })
    .optional()
    .describe('A short description ("" for none); left out, the live description is kept.'),
  previously: z
    .array(labelName.describe("A name the label may have on the service now."))
    .optional()
    .describe(
      "Names the label may have now: the first found is renamed to this name (PATCH with new_name), so the issues and pull requests that carry it keep it. A name that differs from this one only in case asks for this exact case.",
    ),
});

const labelsSchema = closed({
  mode: modeField("labels"),
  items: z
    .record(
      labelName,
      orNull(label).describe(
        "The label of this name (names compare case-insensitively); null means no label of this name may exist.",
      ),
    )
    .optional()
    .describe("Labels by name."),
});

export type LabelSettings = z.output<typeof label>;
export type Labels = z.output<typeof labelsSchema>;

/**
 * Names that would make the service's label ambiguous: two items of one name in any case (defaults
 * and an entry may write `Bug` and `bug`), and a previous name that is another item's name or
 * another item's previous name.
 */
function labelListRules(value: Labels): RuleProblem[] {
  const items = Object.entries(value.items ?? {});
  const problems: RuleProblem[] = [];
  const firstItem = new Map<string, string>();
  for (const [name] of items) {
    const key = name.toLowerCase();
    const first = firstItem.get(key);
    if (first === undefined) firstItem.set(key, name);
    else {
      problems.push({
        path: ["items", name],
        message: `label names are not case-sensitive: "${first}" is the same label`,
        sameAs: ["items", first],
      });
    }
  }
  const firstPrevious = new Map<string, [string, number]>();
  for (const [name, settings] of items) {
    (settings?.previously ?? []).forEach((previous, index) => {
      const key = previous.toLowerCase();
      const path = ["items", name, "previously", index];
      const item = firstItem.get(key);
      if (item !== undefined && key !== name.toLowerCase()) {
        problems.push({
          path,
          message: `"${item}" is a label of this list; a previous name must be one no other label has`,
          sameAs: ["items", item],
        });
        return;
      }
      const earlier = firstPrevious.get(key);
      if (earlier !== undefined && earlier[0] !== name) {
        problems.push({
          path,
          message: `"${earlier[0]}" names "${previous}" as a previous name too: one label would be renamed to both`,
          sameAs: ["items", earlier[0], "previously", earlier[1]],
        });
        return;
      }
      firstPrevious.set(key, [name, index]);
    });
  }
  return problems;
}

/** The blocks of `validate --print`: the mode, then one per label as the plan names them. */
function printLabels(value: Labels): PrintBlock[] {
  return [
    modeBlock("label", value.mode),
    ...Object.keys(value.items ?? {}).map((name) => ({
      kind: "label",
      name,
      path: ["items", name],
    })),
  ];
}

export const labelsSetting = defineSetting({
  key: "labels",
  schema: labelsSchema.describe(
    "The repository's labels: mode (additive or authoritative) and items by name.",
  ),
  rules: labelListRules,
  // Authoritative mode is about the whole list: it is one setting, defined once per repository.
  defines: () => [{ id: "labels", path: [], what: "the label list" }],
  print: printLabels,
});
