import { defineKind } from "../kind.js";
import { verifyWritten } from "./canonical.js";
import { protectionGraphql } from "./graphql.js";
import { planBranchProtections } from "./plan.js";
import { branchProtectionSetting } from "./settings.js";
import { exportProtections } from "./export.js";

/**
 * Classic branch protection (`branch_protection: {<branch>: …}`): each branch written is read and
 * written whole with the protection PUT, built from live state plus the fields written; `null`
 * removes a branch's protection. docs/kinds.md, "Branch protection".
 */
export const branchProtection = defineKind({
  name: "branch_protection",
  repository: {
    setting: branchProtectionSetting,
    plan: ({ reader, at, value }) => planBranchProtections(reader, at, value),
    export: exportProtections,
    // A GET of each branch's protection.
    restReads: (value) => Object.keys(value).length,
    graphql: protectionGraphql,
  },
  verify: verifyWritten,
});
