import { defineKind } from "../kind.js";
import { verifyAutolink } from "./canonical.js";
import { planAutolinks } from "./plan.js";
import { autolinksSetting } from "./settings.js";
import { exportAutolinks } from "./export.js";

/**
 * Autolink references (`autolinks: {mode, items}`), keyed by key prefix. A written autolink is
 * managed whole and replaced when it differs (GitHub has no update); `null` deletes one;
 * `authoritative` deletes those not listed. docs/kinds.md, "Autolinks".
 */
export const autolink = defineKind({
  name: "autolink",
  repository: {
    setting: autolinksSetting,
    plan: ({ reader, at, value, options }) =>
      planAutolinks({
        reader,
        repo: at,
        value,
        deleted: options.deleted?.at(reader.target, `${at.owner}/${at.name}`, "autolink") ?? [],
      }),
    export: exportAutolinks,
  },
  verify: verifyAutolink,
});
