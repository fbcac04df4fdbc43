import { type RepoRef, type ResourceReader, readFailure } from "../context.js";
import { exported } from "../exported.js";
import { projectPath } from "../gitlab-paths.js";
import { approvalSettingsAnswer, liveRuleShape } from "./canonical.js";
import {
  type ApprovalRule,
  type MergeRequestApprovals,
  mergeRequestApprovalsSetting,
  SETTING_FIELDS,
} from "./settings.js";

/**
 * The approvals that reproduce a project's live state: every setting, and its rules (additive)
 * with users by username, groups by full path and protected branches by name. Nothing where
 * GitLab answers 403 to the settings' read: its answer where approvals are not available (below
 * Premium), so a Free instance's export still writes the project's other keys.
 */
export async function exportMergeRequestApprovals(
  reader: ResourceReader,
  project: RepoRef,
): Promise<MergeRequestApprovals | undefined> {
  const path = projectPath(project);
  const settings = await reader.getOrAbsent(`${path}/approvals`, approvalSettingsAnswer);
  if (settings.kind === "error" && settings.error.status === 403) return undefined;
  if (settings.kind === "error") throw readFailure(settings.error);
  if (settings.kind === "absent") return undefined;
  const rules = await reader.list(`${path}/approval_rules`, undefined, liveRuleShape);
  if (rules.kind === "error") throw readFailure(rules.error);
  const live = rules.kind === "found" ? rules.data : [];
  const items = Object.fromEntries(
    live.map((rule): [string, ApprovalRule] => [
      rule.name,
      {
        ...(rule.rule_type === "regular" ? {} : { rule_type: rule.rule_type as "any_approver" }),
        approvals_required: rule.approvals_required,
        ...(rule.users.length > 0 ? { users: rule.users.map((user) => user.username) } : {}),
        ...(rule.groups.length > 0 ? { groups: rule.groups.map((group) => group.full_path) } : {}),
        ...(rule.applies_to_all_protected_branches
          ? { applies_to_all_protected_branches: true }
          : rule.protected_branches.length > 0
            ? { protected_branches: rule.protected_branches.map((branch) => branch.name) }
            : {}),
      },
    ]),
  );
  const value = {
    settings: Object.fromEntries(SETTING_FIELDS.map((field) => [field, settings.data[field]])),
    ...(live.length > 0 ? { rules: { mode: "additive", items } } : {}),
  };
  return exported(mergeRequestApprovalsSetting.schema, value, `${path}/approval_rules`);
}
