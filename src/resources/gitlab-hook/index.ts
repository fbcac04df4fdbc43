import { selectedName } from "../../config/glob.js";
import type { ResourceReader } from "../context.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import { defineKind, type PlanOptions } from "../kind.js";
import { verifyHook } from "./canonical.js";
import { type HookSite, planGitlabHooks } from "./plan.js";
import { type GitlabHooks, groupHooksSetting, projectHooksSetting } from "./settings.js";
import { exportGitlabHooks } from "./export.js";

/**
 * GitLab webhooks of projects and groups (issue #37, item 4): `webhooks: {mode, hooks}` as the GitHub
 * `webhooks` key, keyed by delivery url or a pinned id; the secret token and custom header values
 * are write-only, sent on create and when rotated, never lost by an edit. docs/gitlab.md, "Webhooks".
 */

function plan(reader: ResourceReader, site: HookSite, value: GitlabHooks, options: PlanOptions) {
  return planGitlabHooks({
    reader,
    site,
    mode: value.mode ?? "additive",
    hooks: value.hooks ?? [],
    rotation: options,
    deleted: options.deleted?.at(reader.target, site.scope, "gitlab_hook") ?? [],
  });
}

const projectSite = (at: { owner: string; name: string }): HookSite => ({
  scope: selectedName(at.owner, at.name),
  path: `${projectPath(at)}/hooks`,
  owner: "project",
});

const groupSite = (at: string): HookSite => ({
  scope: at,
  path: `${groupPath(at)}/hooks`,
  owner: "group",
});

export const gitlabHookKind = defineKind({
  name: "gitlab_hook",
  project: {
    setting: projectHooksSetting,
    plan: ({ reader, at, value, options }) => plan(reader, projectSite(at), value, options),
    export: (reader, at) => exportGitlabHooks(reader, projectSite(at)),
  },
  group: {
    setting: groupHooksSetting,
    plan: ({ reader, at, value, options }) => plan(reader, groupSite(at), value, options),
    export: (reader, at) => exportGitlabHooks(reader, groupSite(at)),
  },
  verify: verifyHook,
});
