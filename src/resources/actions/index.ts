import { repoPath } from "../context.js";
import { defineKind } from "../kind.js";
import { planActions } from "./plan.js";
import { organizationActionsSetting, repositoryActionsSetting } from "./settings.js";
import { exportOrganizationActions, exportRepositoryActions } from "./export.js";

/**
 * GitHub Actions permissions of a repository or an organization (`actions: {…}`), each part read
 * and written at its own endpoint. docs/kinds.md, "GitHub Actions permissions".
 */
export const actionsKind = defineKind({
  name: "actions",
  repository: {
    setting: repositoryActionsSetting,
    plan: ({ reader, at, value, location }) =>
      planActions(
        { reader, scope: `${at.owner}/${at.name}`, base: repoPath(at), level: "repository" },
        value,
        location,
      ),
    export: exportRepositoryActions,
  },
  organization: {
    setting: organizationActionsSetting,
    plan: ({ reader, at, value }) =>
      planActions(
        { reader, scope: at, base: `/orgs/${encodeURIComponent(at)}`, level: "organization" },
        value,
      ),
    export: exportOrganizationActions,
  },
});
