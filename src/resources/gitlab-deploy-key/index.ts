import { selectedName } from "../../config/glob.js";
import { projectPath } from "../gitlab-paths.js";
import { defineKind } from "../kind.js";
import { verifyDeployKey } from "./canonical.js";
import { planDeployKeys } from "./plan.js";
import { deployKeysSetting } from "./settings.js";
import { exportDeployKeys } from "./export.js";

/**
 * GitLab deploy keys of projects (issue #37, item 5): `deploy_keys: {mode, items}` by title, each
 * known by its public key's SHA256 fingerprint; a retitle or `can_push` is edited in place, a
 * rotated key replaced; a key already on the instance is enabled rather than added again; `null`
 * removes one; `authoritative` removes the keys not listed.
 */
export const gitlabDeployKeyKind = defineKind({
  name: "gitlab_deploy_key",
  project: {
    setting: deployKeysSetting,
    plan: ({ reader, at, value, options }) => {
      const scope = selectedName(at.owner, at.name);
      return planDeployKeys({
        reader,
        scope,
        path: `${projectPath(at)}/deploy_keys`,
        value,
        deleted: options.deleted?.at(reader.target, scope, "gitlab_deploy_key") ?? [],
      });
    },
    export: (reader, at) => exportDeployKeys(reader, `${projectPath(at)}/deploy_keys`),
  },
  verify: verifyDeployKey,
});
