import { selectedName } from "../../config/glob.js";
import { defineKind } from "../kind.js";
import { verifyProtectedTag } from "./canonical.js";
import { KIND, planProtectedTags } from "./plan.js";
import { protectedTagsSetting } from "./settings.js";
import { exportProtectedTags } from "./export.js";

/**
 * A GitLab project's protected tags (issue #36, item 4): `protected_tags: {mode, tags}`. GitLab
 * has POST and DELETE only, so a change is a replacement, shown as one and gated by
 * --allow-protection-gap. docs/gitlab.md, "Protected tags".
 */
export const protectedTags = defineKind({
  name: KIND,
  project: {
    setting: protectedTagsSetting,
    plan: ({ reader, at, value, options }) =>
      planProtectedTags({
        reader,
        project: at,
        value,
        deleted: options.deleted?.at(reader.target, selectedName(at.owner, at.name), KIND) ?? [],
      }),
    export: exportProtectedTags,
  },
  verify: verifyProtectedTag,
});
