import type { PrintBlock } from "../../config/spec.js";
import { modeBlock } from "../collection.js";
import { mustFind } from "../context.js";
import type { KindModule } from "../kind.js";
import { fromRead, LABEL_SHAPE, verifyLabel } from "./canonical.js";
import { labelGraphql } from "./graphql.js";
import { labelsPath, planLabels } from "./plan.js";
import { type LabelSettings, type Labels, labelListRules, labelsSchema } from "./settings.js";

/**
 * Repository labels (`labels: {mode, items}`), keyed by name in any case. What an item writes is
 * managed (colour, description), what it leaves out is kept; `previously` renames a label in place;
 * `null` deletes one; `authoritative` deletes the labels not listed. docs/kinds.md, "Labels".
 */

/** The blocks of `validate --print`: the mode, then one per label as the plan names them. */
function printLabels(value: Labels): PrintBlock[] {
  return [
    modeBlock("label", value.mode),
    ...Object.keys(value.items ?? {}).map((name) => ({
      kind: "label",
      name,
      path: ["items", name],
    })),
  ];
}

export const label: KindModule = {
  name: "label",
  repository: {
    setting: {
      key: "labels",
      schema: labelsSchema.describe(
        "The repository's labels: mode (additive or authoritative) and items by name.",
      ),
      rules: labelListRules,
      // Authoritative mode is about the whole list: it is one setting, defined once per repository.
      defines: () => [{ id: "labels", path: [], what: "the label list" }],
      print: (value) => printLabels(value as Labels),
    },
    plan: ({ reader, repo, value, options }) =>
      planLabels({
        reader,
        repo,
        value: value as Labels,
        deleted: options.deleted?.at(reader.target, `${repo.owner}/${repo.name}`, "label") ?? [],
      }),
    graphql: labelGraphql,
    export: async (reader, repo) => {
      const path = labelsPath(repo);
      const live = mustFind(await reader.list(path, undefined, LABEL_SHAPE), path).map(fromRead);
      if (live.length === 0) return undefined;
      const items = Object.fromEntries(
        live.map(({ name, color, description }): [string, LabelSettings] => [
          name,
          description === "" ? { color } : { color, description },
        ]),
      );
      return { mode: "additive", items };
    },
  },
  verify: verifyLabel,
};
