import * as z from "zod";
import { SETTING_FIELDS, type SettingField } from "./settings.js";

/**
 * GitLab's answers as far as the planner reads them (docs, "Merge request approvals API").
 *
 * `GET /projects/:id/approvals` answers the settings (EE::API::Entities::ApprovalSettings); every
 * field the configuration manages is required, so an answer without one is an error.
 */
export const approvalSettingsAnswer = {
  name: "a project's approval settings",
  schema: z.looseObject(
    Object.fromEntries(SETTING_FIELDS.map((field) => [field, z.boolean()])) as Record<
      SettingField,
      z.ZodBoolean
    >,
  ),
};
export type ApprovalSettingsAnswer = z.infer<typeof approvalSettingsAnswer.schema>;

/**
 * A rule of `GET /projects/:id/approval_rules`: its users with their usernames, its groups with
 * their full paths, its protected branches with their names.
 */
export const liveRule = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  rule_type: z.string(),
  approvals_required: z.number().int(),
  users: z.array(z.looseObject({ id: z.number().int(), username: z.string() })),
  groups: z.array(z.looseObject({ id: z.number().int(), full_path: z.string() })),
  protected_branches: z.array(z.looseObject({ id: z.number().int(), name: z.string() })),
  applies_to_all_protected_branches: z.boolean(),
});
export type LiveRule = z.infer<typeof liveRule>;
export const liveRuleShape = { name: "approval rules", schema: liveRule };

/** A member of `GET /projects/:id/members/all`: whom an approver's username stands for. */
export const memberShape = {
  name: "project members",
  schema: z.looseObject({ id: z.number().int(), username: z.string() }),
};
/** `GET /groups/:id`: an approver group's id. */
export const groupShape = {
  name: "a group",
  schema: z.looseObject({ id: z.number().int(), full_path: z.string() }),
};
/** `GET /projects/:id/protected_branches`: a protected branch's id by its name. */
export const protectedBranchShape = {
  name: "protected branches",
  schema: z.looseObject({ id: z.number().int(), name: z.string() }),
};

/** A rule in the form it is compared in: lists as sets, names of users and groups in lower case. */
export interface CanonicalRule {
  name: string;
  rule_type: string;
  approvals_required: number;
  users: string[];
  groups: string[];
  protected_branches: string[];
  applies_to_all_protected_branches: boolean;
}

const sorted = (list: readonly string[]) => [...list].sort();

/** A rule applied to every protected branch is compared without its list, which GitLab ignores. */
export function canonicalLive(rule: LiveRule): CanonicalRule {
  return {
    name: rule.name,
    rule_type: rule.rule_type,
    approvals_required: rule.approvals_required,
    users: sorted(rule.users.map((user) => user.username.toLowerCase())),
    groups: sorted(rule.groups.map((group) => group.full_path.toLowerCase())),
    protected_branches: rule.applies_to_all_protected_branches
      ? []
      : sorted(rule.protected_branches.map((branch) => branch.name)),
    applies_to_all_protected_branches: rule.applies_to_all_protected_branches,
  };
}
