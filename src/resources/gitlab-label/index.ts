import { selectedName } from "../../config/glob.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import { defineKind } from "../kind.js";
import { verifyLabel } from "./canonical.js";
import { labelGraphql } from "./graphql.js";
import { planGitlabLabels } from "./plan.js";
import { groupLabelsSetting, projectLabelsSetting } from "./settings.js";
import { exportGitlabLabels } from "./export.js";

/**
 * GitLab labels of projects and groups (issue #37, item 3): `labels: {mode, items}` keyed by name,
 * each a colour, a description and (a project's) a priority; `previously` renames a label in place
 * so its issues and merge requests keep it; `null` deletes one; `authoritative` deletes the place's
 * own labels not listed, never one inherited from a group above. docs/gitlab.md, "Labels". A
 * project's labels are read in bulk as a partial answer (./graphql.ts): GitLab's GraphQL `Label`
 * shows no priority, so what changes is planned from REST's listing.
 */
export const gitlabLabelKind = defineKind({
  name: "gitlab_label",
  project: {
    setting: projectLabelsSetting,
    plan: ({ reader, at, value, options }) => {
      const scope = selectedName(at.owner, at.name);
      return planGitlabLabels({
        reader,
        scope,
        path: `${projectPath(at)}/labels`,
        place: "project",
        value,
        deleted: options.deleted?.at(reader.target, scope, "gitlab_label") ?? [],
      });
    },
    export: (reader, at) => exportGitlabLabels(reader, `${projectPath(at)}/labels`, "project"),
    graphql: labelGraphql,
  },
  group: {
    setting: groupLabelsSetting,
    plan: ({ reader, at, value, options }) =>
      planGitlabLabels({
        reader,
        scope: at,
        path: `${groupPath(at)}/labels`,
        place: "group",
        value,
        deleted: options.deleted?.at(reader.target, at, "gitlab_label") ?? [],
      }),
    export: (reader, at) => exportGitlabLabels(reader, `${groupPath(at)}/labels`, "group"),
  },
  verify: verifyLabel,
});
