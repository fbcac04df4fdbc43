import { defineKind } from "../kind.js";
import { approvalReads, planMergeRequestApprovals } from "./plan.js";
import { mergeRequestApprovalsSetting } from "./settings.js";
import { verifyApprovals } from "./verify.js";
import { exportMergeRequestApprovals } from "./export.js";

/**
 * GitLab merge-request approvals (issue #36, item 8; Premium): a project's approval settings and
 * approval rules, one kind with one key holding both (`merge_request_approvals: {settings,
 * rules}`): they are one GitLab feature with one tier and one permission, a rule's count stands
 * where the settings' deprecated `approvals_before_merge` did, and export reads them together.
 * Each is still a resource of its own (`settings`, `rules/<name>`) in plans and PR-scoped plans.
 */
export const mergeRequestApprovalsKind = defineKind({
  name: "merge_request_approvals",
  project: {
    setting: mergeRequestApprovalsSetting,
    plan: ({ reader, at, value, options }) =>
      planMergeRequestApprovals({ reader, project: at, value, deleted: options.deleted }),
    export: exportMergeRequestApprovals,
    restReads: approvalReads,
  },
  verify: verifyApprovals,
});
