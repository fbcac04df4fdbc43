import { selectedName } from "../../config/glob.js";
import { defineKind } from "../kind.js";
import { verifyProtectedBranch } from "./canonical.js";
import { KIND, planProtectedBranches } from "./plan.js";
import { protectedBranchesSetting } from "./settings.js";
import { exportProtectedBranches } from "./export.js";

/**
 * A GitLab project's protected branches (issue #36, item 3): `protected_branches: {mode,
 * branches}`, changed by PATCH with the entries' ids and never left unprotected — except where the
 * tier's PATCH cannot change a list, gated by --allow-protection-gap. docs/gitlab.md, "Protected
 * branches".
 */
export const protectedBranches = defineKind({
  name: KIND,
  project: {
    setting: protectedBranchesSetting,
    plan: ({ reader, at, value, options }) =>
      planProtectedBranches({
        reader,
        project: at,
        value,
        deleted: options.deleted?.at(reader.target, selectedName(at.owner, at.name), KIND) ?? [],
      }),
    export: exportProtectedBranches,
  },
  verify: verifyProtectedBranch,
});
