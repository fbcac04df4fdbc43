/**
 * How badges are written, for a project (`projects[].badges`) and for a group (`groups[].badges`):
 * `badges: {mode, items: {<name>: {link_url, image_url}}}`, the shape of `autolinks`. A badge is
 * managed whole: both URLs, which may hold GitLab's placeholders (`%{project_path}`,
 * `%{default_branch}` …, doc/user/project/badges.md), compared as written.
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type PrintBlock } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";

/** A badge URL: http or https once its placeholders are filled (GitLab's Badge validates both). */
const url = (what: string) =>
  z
    .string()
    .max(2048)
    .refine((text) => /^https?:\/\/[^\s]+$/.test(text.replaceAll(/%\{[a-z_]+\}/g, "x")), {
      error:
        "expected an http or https URL (GitLab's placeholders such as %{project_path} allowed)",
    })
    .describe(what);

const badge = closed({
  link_url: url("Where the badge links to."),
  image_url: url("The badge's image."),
});

const badgesSchema = closed({
  mode: modeField("badges"),
  items: z
    .record(
      z.string().min(1).max(255),
      orNull(badge).describe(
        "The badge of this name, managed whole; null means no badge of this name may exist.",
      ),
    )
    .optional()
    .describe("Badges by name (compared as written; a group's badges are never written here)."),
});

export type BadgeSettings = z.output<typeof badge>;
export type Badges = z.output<typeof badgesSchema>;

function printBadges(value: Badges): PrintBlock[] {
  return [
    modeBlock("badge", value.mode),
    ...Object.keys(value.items ?? {}).map((name): PrintBlock => ({
      kind: "badge",
      name,
      path: ["items", name],
    })),
  ];
}

export const badgesSetting = defineSetting({
  key: "badges",
  schema: badgesSchema.describe(
    "Badges (GitLab's project and group badges): mode (additive or authoritative) and items by name, each a link_url and an image_url.",
  ),
  // Authoritative mode is about the whole list: one setting, defined once per project or group.
  defines: () => [{ id: "badges", path: [], what: "the badge list" }],
  print: printBadges,
});
