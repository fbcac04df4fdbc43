import { defineKind } from "../kind.js";
import { verifyDeployKey } from "./canonical.js";
import { planDeployKeys } from "./plan.js";
import { deployKeysSetting } from "./settings.js";
import { exportDeployKeys } from "./export.js";

/**
 * Deploy keys (`deploy_keys: {mode, keys}`), keyed by the SHA256 fingerprint of each public key:
 * a retitled key is an update (GitHub has none: delete and create), a rotated key a replacement,
 * `authoritative` deletes those not listed. docs/kinds.md, "Deploy keys".
 */
export const deployKeyKind = defineKind({
  name: "deploy_key",
  repository: {
    setting: deployKeysSetting,
    plan: ({ reader, at, value, options }) =>
      planDeployKeys({
        reader,
        repo: at,
        value,
        deleted: options.deleted?.at(reader.target, `${at.owner}/${at.name}`, "deploy_key") ?? [],
      }),
    export: exportDeployKeys,
  },
  verify: verifyDeployKey,
});
