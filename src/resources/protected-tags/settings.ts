/**
 * How a GitLab project's protected tags are written (`protected_tags: {mode, tags}`), keyed by
 * tag name or wildcard (`v*`). GitLab has no update for a protected tag, so a written one is
 * managed whole: `create` left out is GitLab's default, maintainer. `null`: must not be protected.
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type PrintBlock } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";
import { accessList, TAG_LEVELS } from "../protected-ref-access.js";

export const tagProtection = closed({
  create: accessList(TAG_LEVELS, "may create the tag", true).optional(),
});

const protectedTags = closed({
  mode: modeField("protected tags"),
  tags: z
    .record(
      z.string().min(1).max(255),
      orNull(tagProtection).describe(
        "The protection of this tag or wildcard, managed whole; null means it must not be protected.",
      ),
    )
    .optional()
    .describe("Protections by tag name or wildcard (v*), compared as written."),
});

export type TagProtection = z.output<typeof tagProtection>;
export type ProtectedTags = z.output<typeof protectedTags>;

function print(value: ProtectedTags): PrintBlock[] {
  return [
    modeBlock("protected_tags", value.mode),
    ...Object.entries(value.tags ?? {}).map(([name, tag]): PrintBlock => ({
      kind: "protected_tags",
      name,
      path: ["tags", name],
      ...(tag !== null && tag.create === undefined
        ? { defaults: [["create", ["maintainer"]]] }
        : {}),
    })),
  ];
}

export const protectedTagsSetting = defineSetting({
  key: "protected_tags",
  schema: protectedTags.describe(
    "The GitLab project's protected tags: mode (additive or authoritative) and tags by name or wildcard. GitLab has no update: a change is a replacement (unprotected, then protected again), applied only with --allow-protection-gap.",
  ),
  defines: () => [{ id: "protected_tags", path: [], what: "the protected tag list" }],
  print,
});
