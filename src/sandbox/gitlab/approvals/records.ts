import { attached } from "../../core/attached.js";
import type { GitlabWorld, Project } from "../world/records.js";

/**
 * Merge-request approvals (GitLab Premium), kept beside each project: its approval settings
 * (`/projects/:id/approvals`) and approval rules (`/projects/:id/approval_rules`).
 */

export const SETTING_FIELDS = [
  "reset_approvals_on_push",
  "selective_code_owner_removals",
  "disable_overriding_approvers_per_merge_request",
  "merge_requests_author_approval",
  "merge_requests_disable_committers_approval",
  "require_password_to_approve",
] as const;
export type SettingField = (typeof SETTING_FIELDS)[number];

export type ApprovalSettingsRecord = { approvals_before_merge: number } & Record<
  SettingField,
  boolean
>;

/**
 * A project's settings, GitLab's defaults until a seed or a POST sets them: a new project resets
 * approvals on push (`reset_approvals_on_push` defaults to true in the projects table) and has
 * every other switch off.
 */
export const approvalSettingsOf = attached((_project: Project): ApprovalSettingsRecord => ({
  approvals_before_merge: 0,
  reset_approvals_on_push: true,
  selective_code_owner_removals: false,
  disable_overriding_approvers_per_merge_request: false,
  merge_requests_author_approval: false,
  merge_requests_disable_committers_approval: false,
  require_password_to_approve: false,
}));

export const RULE_TYPES = ["regular", "any_approver", "report_approver"] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** GitLab's ApprovalRuleLike::APPROVALS_REQUIRED_MAX. */
export const APPROVALS_REQUIRED_MAX = 100;

export interface ApprovalRuleRecord {
  id: number;
  name: string;
  rule_type: RuleType;
  report_type: string | null;
  approvals_required: number;
  userIds: number[];
  groupIds: number[];
  protectedBranchIds: number[];
  applies_to_all_protected_branches: boolean;
}

/** A project's rules in the order they were made (GitLab lists them by id). */
export const approvalRulesOf = attached((_project: Project): ApprovalRuleRecord[] => []);
export const approvalRuleIds = attached((_world: GitlabWorld) => ({ next: 1 }));
