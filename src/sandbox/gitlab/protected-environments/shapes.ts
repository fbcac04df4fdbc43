import type { DeployLevel, ProtectedEnvironment } from "./records.js";

const ROLES: Record<number, string> = {
  30: "Developers + Maintainers",
  40: "Maintainers",
  60: "Administrators",
};

/** What GitLab shows of who an entry names: a role's description, a user's or a group's name. */
function described(entry: DeployLevel): string {
  const { principal } = entry;
  if (principal.kind === "role") return ROLES[principal.level] ?? String(principal.level);
  if (principal.kind === "user") return principal.user.name ?? principal.user.username;
  return principal.group.name;
}

/**
 * An entry as GitLab's DeployAccessLevel and ApprovalRule entities show it: a user's or a group's
 * deploy access level carries the Maintainer level GitLab stores beside it (the docs' example:
 * `"access_level": 40` with a `group_id`), an approval rule's a null one.
 */
function entry(value: DeployLevel, rule: boolean): Record<string, unknown> {
  const { principal } = value;
  return {
    id: value.id,
    access_level: principal.kind === "role" ? principal.level : rule ? null : 40,
    access_level_description: described(value),
    user_id: principal.kind === "user" ? principal.user.id : null,
    group_id: principal.kind === "group" ? principal.group.id : null,
    group_inheritance_type: value.groupInheritanceType,
  };
}

/** GitLab's ProtectedEnvironment entity. */
export function protectedEnvironment(value: ProtectedEnvironment): Record<string, unknown> {
  return {
    name: value.name,
    deploy_access_levels: value.deployAccessLevels.map((level) => entry(level, false)),
    required_approval_count: value.requiredApprovalCount,
    approval_rules: value.approvalRules.map((rule) => ({
      ...entry(rule, true),
      required_approvals: rule.requiredApprovals,
    })),
  };
}
