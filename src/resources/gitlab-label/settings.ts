/**
 * How GitLab labels are written, for a project (`projects[].labels`) and for a group
 * (`groups[].labels`): `labels: {mode, items: {<name>: {color, description, priority,
 * previously}}}`, the shape of the GitHub `labels` key, so one model serves both services. What an
 * item leaves out is kept; `null` says no label of that name may be the place's own.
 *
 * GitLab's names are case-sensitive (Label validates `title` unique per project or group as
 * written: app/models/label.rb), so `Bug` and `bug` are two labels here, unlike on GitHub.
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type PrintBlock, type RuleProblem } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";
import { NAMED_COLORS } from "./colors.js";

/** Label: `validates :title, length: { maximum: 255 }` (app/models/label.rb). */
const MAX_NAME_CHARACTERS = 255;
/** Label::DESCRIPTION_LENGTH_MAX, `512.kilobytes`, counted in bytes. */
const MAX_DESCRIPTION_BYTES = 512 * 1024;

/**
 * Label#sanitize_value (`CGI.unescapeHTML(Sanitize.clean(value))`) strips HTML tags and decodes
 * character references in a name and a description: a value holding either would be stored
 * otherwise than written and plan again forever, so it is refused here.
 */
const HTML = /<[A-Za-z!/?]|&(?:#\d+|#x[0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);/;
const NOT_HTML = "GitLab strips HTML tags and character references from labels (write the text)";

export const gitlabLabelName = z
  .string()
  .refine((text) => text.trim() !== "", { error: "a label name must not be blank" })
  .refine((text) => text.trim() === text, {
    error: "a label name must not start or end with spaces (GitLab strips them)",
  })
  .refine((text) => !text.includes(","), {
    error: "a label name must not hold a comma (GitLab refuses it)",
  })
  .refine((text) => [...text].length <= MAX_NAME_CHARACTERS, {
    error: `a label name has at most ${MAX_NAME_CHARACTERS} characters`,
  })
  .refine((text) => !HTML.test(text), { error: NOT_HTML });

const HEX = /^#?(?:[0-9A-Fa-f]{3}){1,2}$/;

const color = z
  .string()
  .refine((text) => HEX.test(text) || NAMED_COLORS[text.toLowerCase()] !== undefined, {
    error: "expected hex digits (#d73a4a, #f00, with or without #) or a CSS colour name (red)",
  })
  .optional()
  .describe(
    "Six or three hex digits, with or without #, or a CSS colour name GitLab knows (red, which GitLab stores as #FF0000); compared as colours (#f00, #FF0000 and red are one). Left out, the live colour is kept (a new label gets GitLab's default #6699cc).",
  );

const description = z
  .string()
  .refine((text) => new TextEncoder().encode(text).length <= MAX_DESCRIPTION_BYTES, {
    error: "a label description has at most 512 KiB",
  })
  .refine((text) => !HTML.test(text), { error: NOT_HTML })
  .optional()
  .describe('A description ("" for none); left out, the live description is kept.');

const previously = z
  .array(gitlabLabelName.describe("A name the label may have on GitLab now."))
  .optional()
  .describe(
    "Names the label may have now: the first found is renamed to this name in place (PUT with new_name), so the issues and merge requests that carry it keep it.",
  );

const groupLabel = closed({ color, description, previously }, (key) =>
  key === "priority"
    ? "a label's priority is a project's (label_priorities): set it in the projects' entries"
    : undefined,
);

const projectLabel = closed({
  color,
  description,
  priority: orNull(z.number().int().min(0))
    .optional()
    .describe(
      "The label's priority in this project (0 is the highest); null: no priority; left out, the live priority is kept.",
    ),
  previously,
});

function labelsSchema<T extends z.ZodType>(label: T, where: string) {
  return closed({
    mode: modeField("labels"),
    items: z
      .record(
        gitlabLabelName,
        orNull(label).describe(
          `The label of this name (case-sensitive); null means the ${where} has no label of this name of its own.`,
        ),
      )
      .optional()
      .describe(
        `Labels by name. A label the ${where} inherits from a group above it is managed in that group's entry, never here.`,
      ),
  });
}

const projectLabels = labelsSchema(projectLabel, "project");
const groupLabels = labelsSchema(groupLabel, "group");

export type ProjectLabelSettings = z.output<typeof projectLabel>;
export type GroupLabelSettings = z.output<typeof groupLabel>;
export type LabelSettings = ProjectLabelSettings | GroupLabelSettings;
export type ProjectLabels = z.output<typeof projectLabels>;
export type GroupLabels = z.output<typeof groupLabels>;
export type Labels = ProjectLabels | GroupLabels;

/**
 * Names that would make a label ambiguous: a previous name that is another item's name, or that
 * two items both name (one label would be renamed to both).
 */
function labelListRules(value: Labels): RuleProblem[] {
  const items = Object.entries(value.items ?? {});
  const problems: RuleProblem[] = [];
  const firstPrevious = new Map<string, [string, number]>();
  for (const [name, settings] of items) {
    (settings?.previously ?? []).forEach((previous, index) => {
      const path = ["items", name, "previously", index];
      if (previous !== name && value.items?.[previous] !== undefined) {
        problems.push({
          path,
          message: `"${previous}" is a label of this list; a previous name must be one no other label has`,
          sameAs: ["items", previous],
        });
        return;
      }
      const earlier = firstPrevious.get(previous);
      if (earlier !== undefined && earlier[0] !== name) {
        problems.push({
          path,
          message: `"${earlier[0]}" names "${previous}" as a previous name too: one label would be renamed to both`,
          sameAs: ["items", earlier[0], "previously", earlier[1]],
        });
        return;
      }
      firstPrevious.set(previous, [name, index]);
    });
  }
  return problems;
}

function printLabels(value: Labels): PrintBlock[] {
  return [
    modeBlock("gitlab_label", value.mode),
    ...Object.keys(value.items ?? {}).map((name): PrintBlock => ({
      kind: "gitlab_label",
      name,
      path: ["items", name],
    })),
  ];
}

// Authoritative mode is about the whole list: one setting, defined once per project or group.
const defines = () => [{ id: "labels", path: [], what: "the label list" }];

export const projectLabelsSetting = defineSetting({
  key: "labels",
  schema: projectLabels.describe(
    "The project's own labels (GitLab): mode (additive or authoritative) and items by name, each a color, description, priority and previous names.",
  ),
  rules: labelListRules,
  defines,
  print: printLabels,
});

export const groupLabelsSetting = defineSetting({
  key: "labels",
  schema: groupLabels.describe(
    "The group's own labels (GitLab), which its subgroups and projects inherit: mode (additive or authoritative) and items by name, each a color, description and previous names.",
  ),
  rules: labelListRules,
  defines,
  print: printLabels,
});
