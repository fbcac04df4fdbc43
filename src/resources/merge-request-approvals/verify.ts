import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { approvalSettingsAnswer, liveRule } from "./canonical.js";

/**
 * What GitLab did not keep of a write: the settings' POST field by field; a rule's POST or PUT by
 * its name, count, branches scope and the ids of its users, groups and protected branches (GitLab
 * drops ids it does not keep without a word, so a dropped one shows here).
 */
export function verifyApprovals(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST" && request.method !== "PUT") return [];
  const sent = (request.body ?? {}) as Record<string, unknown>;
  if (request.path.endsWith("/approvals")) {
    const parsed = approvalSettingsAnswer.schema.safeParse(response);
    if (!parsed.success)
      return [{ path: "(response)", before: "approval settings", after: "something else" }];
    const answer = parsed.data as Record<string, unknown>;
    return diffValues(sent, Object.fromEntries(Object.keys(sent).map((key) => [key, answer[key]])));
  }
  const parsed = liveRule.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "an approval rule", after: "something else" }];
  const rule = parsed.data;
  const ids = (list: ReadonlyArray<{ id: number }>) =>
    list.map((item) => item.id).sort((a, b) => a - b);
  const sorted = (value: unknown) =>
    [...((value as number[] | undefined) ?? [])].sort((a, b) => a - b);
  const all = rule.applies_to_all_protected_branches;
  return diffValues(
    {
      name: sent.name,
      approvals_required: sent.approvals_required,
      user_ids: sorted(sent.user_ids),
      group_ids: sorted(sent.group_ids),
      protected_branch_ids: all ? [] : sorted(sent.protected_branch_ids),
      applies_to_all_protected_branches: sent.applies_to_all_protected_branches,
      ...(sent.rule_type === undefined ? {} : { rule_type: sent.rule_type }),
    },
    {
      name: rule.name,
      approvals_required: rule.approvals_required,
      user_ids: ids(rule.users),
      group_ids: ids(rule.groups),
      protected_branch_ids: all ? [] : ids(rule.protected_branches),
      applies_to_all_protected_branches: all,
      ...(sent.rule_type === undefined ? {} : { rule_type: rule.rule_type }),
    },
  );
}
