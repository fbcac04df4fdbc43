import type { GitlabWorld } from "../world/records.js";
import { group, planningUser } from "../world/shapes.js";
import type { Project } from "../world/records.js";
import { protectedBranchById, protectedBranchShape } from "./protected-branches.js";
import type { ApprovalRuleRecord, ApprovalSettingsRecord } from "./records.js";

/**
 * GitLab's answers (docs, "Merge request approvals API"): the settings
 * (EE::API::Entities::ApprovalSettings, with the `approvers` and `approver_groups` deprecated in
 * 12.3 that "always return empty") and a rule (its users, groups and protected branches whole,
 * `eligible_approvers` its users and its groups' members).
 */
export function approvalSettings(settings: ApprovalSettingsRecord): Record<string, unknown> {
  return { approvers: [], approver_groups: [], ...settings };
}

export function approvalRule(
  world: GitlabWorld,
  base: string,
  project: Project,
  rule: ApprovalRuleRecord,
): Record<string, unknown> {
  const users = rule.userIds.flatMap((id) => {
    const user = world.users.get(id);
    return user === undefined ? [] : [user];
  });
  const groups = rule.groupIds.flatMap((id) => {
    const found = world.groups.get(id);
    return found === undefined ? [] : [found];
  });
  const eligible = new Map(users.map((user) => [user.id, user]));
  for (const found of groups) {
    for (const id of found.members.keys()) {
      const user = world.users.get(id);
      if (user !== undefined) eligible.set(id, user);
    }
  }
  return {
    id: rule.id,
    name: rule.name,
    rule_type: rule.rule_type,
    report_type: rule.report_type,
    eligible_approvers: [...eligible.values()].map((user) => planningUser(base, user)),
    approvals_required: rule.approvals_required,
    users: users.map((user) => planningUser(base, user)),
    groups: groups.map((found) => group(base, found)),
    contains_hidden_groups: false,
    protected_branches: rule.protectedBranchIds.flatMap((id) => {
      const branch = protectedBranchById(project, id);
      return branch === undefined ? [] : [protectedBranchShape(branch)];
    }),
    applies_to_all_protected_branches: rule.applies_to_all_protected_branches,
  };
}
