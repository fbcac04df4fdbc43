import { selectedName } from "../../config/glob.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import { defineKind } from "../kind.js";
import { verifyBadge } from "./canonical.js";
import { planBadges } from "./plan.js";
import { badgesSetting } from "./settings.js";
import { exportBadges } from "./export.js";

/**
 * GitLab badges of projects and groups (issue #37, item 7): `badges: {mode, items}` keyed by name,
 * each a link and an image URL with GitLab's placeholders; edited in place; `null` deletes one;
 * `authoritative` deletes the place's own badges not listed, never a group's shown on a project.
 */
export const badgeKind = defineKind({
  name: "badge",
  project: {
    setting: badgesSetting,
    plan: ({ reader, at, value, options }) => {
      const scope = selectedName(at.owner, at.name);
      return planBadges({
        reader,
        scope,
        path: `${projectPath(at)}/badges`,
        own: "project",
        value,
        deleted: options.deleted?.at(reader.target, scope, "badge") ?? [],
      });
    },
    export: (reader, at) => exportBadges(reader, `${projectPath(at)}/badges`, "project"),
  },
  group: {
    setting: badgesSetting,
    plan: ({ reader, at, value, options }) =>
      planBadges({
        reader,
        scope: at,
        path: `${groupPath(at)}/badges`,
        own: "group",
        value,
        deleted: options.deleted?.at(reader.target, at, "badge") ?? [],
      }),
    export: (reader, at) => exportBadges(reader, `${groupPath(at)}/badges`, "group"),
  },
  verify: verifyBadge,
});
