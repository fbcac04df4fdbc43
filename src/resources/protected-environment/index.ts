import { selectedName } from "../../config/glob.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import { defineKind } from "../kind.js";
import { verifyEnvironment } from "./canonical.js";
import { planEnvironments } from "./plan.js";
import { groupEnvironmentsSetting, projectEnvironmentsSetting } from "./settings.js";
import { exportEnvironments } from "./export.js";

/**
 * GitLab protected environments (issue #37, item 6; Premium) of projects and groups:
 * `protected_environments: {mode, items}` by name (a group's by deployment tier), each who may
 * deploy and the approval rules; a change is one PUT of the entries to add and to destroy, never
 * an unprotect and a protect; `null` unprotects one; `authoritative` unprotects those not listed.
 */
export const protectedEnvironmentKind = defineKind({
  name: "protected_environment",
  project: {
    setting: projectEnvironmentsSetting,
    plan: ({ reader, at, value, options }) => {
      const scope = selectedName(at.owner, at.name);
      return planEnvironments({
        reader,
        scope,
        path: `${projectPath(at)}/protected_environments`,
        group: false,
        value,
        deleted: options.deleted?.at(reader.target, scope, "protected_environment") ?? [],
      });
    },
    export: (reader, at) => exportEnvironments(reader, `${projectPath(at)}/protected_environments`),
  },
  group: {
    setting: groupEnvironmentsSetting,
    plan: ({ reader, at, value, options }) =>
      planEnvironments({
        reader,
        scope: at,
        path: `${groupPath(at)}/protected_environments`,
        group: true,
        value,
        deleted: options.deleted?.at(reader.target, at, "protected_environment") ?? [],
      }),
    export: (reader, at) => exportEnvironments(reader, `${groupPath(at)}/protected_environments`),
  },
  verify: verifyEnvironment,
});
