import { defineKind } from "../kind.js";
import { verifyPages } from "./canonical.js";
import { planPages } from "./plan.js";
import { pagesSetting } from "./settings.js";
import { exportPages } from "./export.js";

/**
 * A repository's GitHub Pages site (`pages: {build_type, source, cname, https_enforced}` or `null`):
 * created, updated and deleted (the delete with --allow-delete). docs/kinds.md, "GitHub Pages".
 */
export const pagesKind = defineKind({
  name: "pages",
  repository: {
    setting: pagesSetting,
    plan: ({ reader, at, value }) => planPages(reader, at, value),
    export: exportPages,
  },
  verify: verifyPages,
});
