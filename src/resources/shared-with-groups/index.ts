import { selectedName } from "../../config/glob.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import { defineKind } from "../kind.js";
import { verifyShareWrite } from "./canonical.js";
import { KIND, planShares, withAncestors } from "./plan.js";
import { groupSharesSetting, projectSharesSetting } from "./settings.js";
import { exportGroupShares, exportProjectShares } from "./export.js";

/**
 * GitLab projects and groups shared with groups (issue #36, item 6): `shared_with_groups` in a
 * `projects:` entry and in a `groups:` entry, named after the list GitLab answers in both. One kind
 * with both parts: the same shares, levels and requests (`POST`/`DELETE …/share`). docs/gitlab.md,
 * "Sharing".
 */
export const sharedWithGroupsKind = defineKind({
  name: KIND,
  project: {
    setting: projectSharesSetting,
    plan: ({ reader, at, value, options }) => {
      const scope = selectedName(at.owner, at.name);
      return planShares(
        {
          reader,
          scope,
          base: projectPath(at),
          what: "project",
          refused: at.owner === "" ? [] : withAncestors(at.owner),
        },
        value,
        options.deleted?.at(reader.target, scope, KIND) ?? [],
      );
    },
    export: exportProjectShares,
  },
  group: {
    setting: groupSharesSetting,
    plan: ({ reader, at, value, options }) =>
      planShares(
        { reader, scope: at, base: groupPath(at), what: "group", refused: [at.toLowerCase()] },
        value,
        options.deleted?.at(reader.target, at, KIND) ?? [],
      ),
    export: exportGroupShares,
  },
  verify: verifyShareWrite,
});
