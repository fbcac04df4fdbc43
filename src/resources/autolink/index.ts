import type { PrintBlock } from "../../config/spec.js";
import { modeBlock } from "../collection.js";
import { mustFind } from "../context.js";
import type { KindModule } from "../kind.js";
import { AUTOLINK_SHAPE, verifyAutolink } from "./canonical.js";
import { autolinksPath, planAutolinks } from "./plan.js";
import {
  type AutolinkSettings,
  type Autolinks,
  autolinkRules,
  autolinksSchema,
} from "./settings.js";

/**
 * Autolink references (`autolinks: {mode, items}`), keyed by key prefix. A written autolink is
 * managed whole and replaced when it differs (GitHub has no update); `null` deletes one;
 * `authoritative` deletes those not listed. docs/kinds.md, "Autolinks".
 */

function printAutolinks(value: Autolinks): PrintBlock[] {
  return [
    modeBlock("autolink", value.mode),
    ...Object.entries(value.items ?? {}).map(([prefix, settings]): PrintBlock => ({
      kind: "autolink",
      name: prefix,
      path: ["items", prefix],
      ...(settings !== null && settings.is_alphanumeric === undefined
        ? { defaults: [["is_alphanumeric", true]] }
        : {}),
    })),
  ];
}

export const autolink: KindModule = {
  name: "autolink",
  repository: {
    setting: {
      key: "autolinks",
      schema: autolinksSchema.describe(
        "The repository's autolink references: mode (additive or authoritative) and items by key prefix.",
      ),
      rules: autolinkRules,
      // Authoritative mode is about the whole list: it is one setting, defined once per repository.
      defines: () => [{ id: "autolinks", path: [], what: "the autolink list" }],
      print: (value) => printAutolinks(value as Autolinks),
    },
    plan: ({ reader, repo, value, options }) =>
      planAutolinks({
        reader,
        repo,
        value: value as Autolinks,
        deleted: options.deleted?.at(reader.target, `${repo.owner}/${repo.name}`, "autolink") ?? [],
      }),
    export: async (reader, repo) => {
      const path = autolinksPath(repo);
      const live = mustFind(await reader.list(path, undefined, AUTOLINK_SHAPE), path);
      if (live.length === 0) return undefined;
      const items = Object.fromEntries(
        live.map(({ key_prefix, url_template, is_alphanumeric }): [string, AutolinkSettings] => [
          key_prefix,
          { url_template, is_alphanumeric },
        ]),
      );
      return { mode: "additive", items };
    },
  },
  verify: verifyAutolink,
};
