import { selectedName } from "../../config/glob.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import { defineKind } from "../kind.js";
import { verifyVariable } from "./canonical.js";
import { planVariables } from "./plan.js";
import { variablesSetting } from "./settings.js";

/**
 * GitLab CI/CD variables of projects and groups (issue #37, item 2): `variables: {mode, items}`
 * keyed by `KEY` or `KEY@environment-scope`, each value a `${NAME}` reference compared exactly and
 * never printed (a hidden one by presence, sent again only when rotated); `null` deletes one;
 * `authoritative` deletes the place's variables not listed, under the removal caps.
 */
export const gitlabVariableKind = defineKind({
  name: "gitlab_variable",
  project: {
    setting: variablesSetting,
    plan: ({ reader, at, value, options }) => {
      const scope = selectedName(at.owner, at.name);
      return planVariables({
        reader,
        scope,
        path: `${projectPath(at)}/variables`,
        value,
        rotation: options,
        deleted: options.deleted?.at(reader.target, scope, "gitlab_variable") ?? [],
      });
    },
    export: async (reader, at) =>
      (await import("./export.js")).exportVariables(
        reader,
        `${projectPath(at)}/variables`,
        at.owner === "" ? `project ${at.name}` : `${at.owner}/${at.name}`,
      ),
  },
  group: {
    setting: variablesSetting,
    plan: ({ reader, at, value, options }) =>
      planVariables({
        reader,
        scope: at,
        path: `${groupPath(at)}/variables`,
        value,
        rotation: options,
        deleted: options.deleted?.at(reader.target, at, "gitlab_variable") ?? [],
      }),
    export: async (reader, at) =>
      (await import("./export.js")).exportVariables(
        reader,
        `${groupPath(at)}/variables`,
        /^\d+$/.test(at) ? `group ${at}` : at,
      ),
  },
  verify: verifyVariable,
});
