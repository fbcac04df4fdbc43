import { defineKind } from "../kind.js";
import { verifyLabel } from "./canonical.js";
import { labelGraphql } from "./graphql.js";
import { planLabels } from "./plan.js";
import { labelsSetting } from "./settings.js";
import { exportLabels } from "./export.js";

/**
 * Repository labels (`labels: {mode, items}`), keyed by name in any case. What an item writes is
 * managed (colour, description), what it leaves out is kept; `previously` renames a label in place;
 * `null` deletes one; `authoritative` deletes the labels not listed. docs/kinds.md, "Labels".
 */
export const label = defineKind({
  name: "label",
  repository: {
    setting: labelsSetting,
    plan: ({ reader, at, value, options }) =>
      planLabels({
        reader,
        repo: at,
        value,
        deleted: options.deleted?.at(reader.target, `${at.owner}/${at.name}`, "label") ?? [],
      }),
    graphql: labelGraphql,
    export: exportLabels,
  },
  verify: verifyLabel,
});
