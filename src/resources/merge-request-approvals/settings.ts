/**
 * How merge-request approvals are written: `merge_request_approvals: {settings, rules}` in
 * `project_defaults`, `project_profiles` and `projects` entries (GitLab Premium; docs, "Merge request
 * approvals API", "Project-level MR approvals").
 *
 * - `settings`: the fields of `POST /projects/:id/approvals` ("Change configuration"), except
 *   `approvals_before_merge`, deprecated since GitLab 12.3 in favour of approval rules (the
 *   `any_approver` rule's `approvals_required` is the same number): a field not written is left as
 *   GitLab has it.
 * - `rules`: approval rules (`/projects/:id/approval_rules`) by name, each managed whole, `mode:
 *   additive | authoritative` as every collection. Users by username, groups by full path,
 *   protected branches by name, all resolved to GitLab's ids at plan time. GitLab keeps at most one
 *   `any_approver` rule a project (a second answers 400 "any-approver for the project already
 *   exists", gitlabform/gitlabform#482, gitlabhq/terraform-provider-gitlab#949), so the rule of that
 *   type is matched by its type, whatever its name: renaming it is an update.
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import {
  type Defined,
  defineSetting,
  type PrintBlock,
  type RuleProblem,
} from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";

export const SETTING_FIELDS = [
  "reset_approvals_on_push",
  "selective_code_owner_removals",
  "disable_overriding_approvers_per_merge_request",
  "merge_requests_author_approval",
  "merge_requests_disable_committers_approval",
  "require_password_to_approve",
] as const;
export type SettingField = (typeof SETTING_FIELDS)[number];

const SETTING_WORDS: Record<SettingField, string> = {
  reset_approvals_on_push: "A new push to a merge request removes its approvals.",
  selective_code_owner_removals:
    "A new push removes only the approvals of Code Owners whose files changed (only with reset_approvals_on_push false).",
  disable_overriding_approvers_per_merge_request:
    "Merge requests may not change their approvers or approval count.",
  merge_requests_author_approval: "Authors may approve their own merge requests.",
  merge_requests_disable_committers_approval:
    "Users who committed to a merge request may not approve it.",
  require_password_to_approve: "Approvers must enter their password to approve.",
};

const approvalSettings = closed(
  Object.fromEntries(
    SETTING_FIELDS.map((field) => [field, z.boolean().optional().describe(SETTING_WORDS[field])]),
  ) as Record<SettingField, z.ZodOptional<z.ZodBoolean>>,
  (key) =>
    key === "approvals_before_merge"
      ? "approvals_before_merge is deprecated since GitLab 12.3; write the any_approver rule's approvals_required instead"
      : undefined,
);

export const RULE_TYPES = ["regular", "any_approver"] as const;

/** GitLab's ApprovalRuleLike: `approvals_required` from 0 to APPROVALS_REQUIRED_MAX (100). */
export const APPROVALS_REQUIRED_MAX = 100;

const username = z
  .string()
  .regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/, { error: "expected a GitLab username" })
  .describe("A username (a member of the project, directly or through its groups).");
const groupFullPath = z
  .string()
  .regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*(\/[A-Za-z0-9_.][A-Za-z0-9_.-]*)*$/, {
    error: "expected a group's full path such as acme/platform",
  })
  .describe("A group's full path.");

const rule = closed({
  rule_type: z
    .enum(RULE_TYPES)
    .optional()
    .describe(
      "regular (default): approvals from the users and groups listed; any_approver: from any eligible user (one such rule a project).",
    ),
  approvals_required: z
    .int()
    .min(0)
    .max(APPROVALS_REQUIRED_MAX)
    .optional()
    .describe("How many approvals the rule needs, 0 to 100 (required)."),
  users: z
    .array(username)
    .optional()
    .describe("Approvers by username (none when left out); each must be a member of the project."),
  groups: z
    .array(groupFullPath)
    .optional()
    .describe("Approver groups by full path (none when left out)."),
  protected_branches: z
    .array(z.string().min(1).describe("A protected branch's name (as protected, wildcards too)."))
    .optional()
    .describe(
      "The protected branches the rule applies to, by name (every branch when left out and applies_to_all_protected_branches is false).",
    ),
  applies_to_all_protected_branches: z
    .boolean()
    .optional()
    .describe("true: the rule applies to every protected branch (protected_branches then empty)."),
});

export type ApprovalRule = z.output<typeof rule>;

const ruleName = z.string().min(1).max(255);

const rules = closed({
  mode: modeField("approval rules"),
  items: z
    .record(
      ruleName,
      orNull(rule).describe(
        "The approval rule of this name, managed whole; null: no rule of this name may exist.",
      ),
    )
    .optional()
    .describe("Approval rules by name (names are compared as written, as GitLab does)."),
});

const mergeRequestApprovals = closed({
  settings: approvalSettings
    .optional()
    .describe(
      "The project's approval settings (GitLab's POST /projects/:id/approvals); a field not written is left as GitLab has it.",
    ),
  rules: rules
    .optional()
    .describe("The project's approval rules: mode (additive or authoritative) and items by name."),
});

export type MergeRequestApprovals = z.output<typeof mergeRequestApprovals>;
export type ApprovalSettings = NonNullable<MergeRequestApprovals["settings"]>;

/** A rule's type as GitLab files it: regular when not written. */
export const typeOf = (written: ApprovalRule): (typeof RULE_TYPES)[number] =>
  written.rule_type ?? "regular";

function ruleProblems(name: string, written: ApprovalRule): RuleProblem[] {
  const at = ["rules", "items", name];
  const problems: RuleProblem[] = [];
  const add = (path: string[], message: string) =>
    problems.push({ path: [...at, ...path], message });
  if (written.approvals_required === undefined)
    add([], `approval rule ${JSON.stringify(name)} needs approvals_required`);
  const approvers = (written.users?.length ?? 0) + (written.groups?.length ?? 0);
  if (typeOf(written) === "any_approver" && approvers > 0)
    add(
      [written.users?.length ? "users" : "groups"],
      "an any_approver rule takes approvals from any eligible user: it lists no users or groups",
    );
  if (typeOf(written) === "regular" && approvers === 0)
    add(
      [],
      `approval rule ${JSON.stringify(name)} lists no users or groups: GitLab makes a rule without approvers the project's any_approver rule (write rule_type: any_approver for that)`,
    );
  if (
    written.applies_to_all_protected_branches === true &&
    (written.protected_branches?.length ?? 0) > 0
  )
    add(
      ["protected_branches"],
      "applies_to_all_protected_branches: true applies the rule to every protected branch; GitLab ignores protected_branches then, so leave them out",
    );
  for (const [field, list] of [
    ["users", written.users?.map((entry) => entry.toLowerCase())],
    ["groups", written.groups?.map((entry) => entry.toLowerCase())],
    ["protected_branches", written.protected_branches],
  ] as const) {
    const seen = new Set<string>();
    for (const [index, entry] of (list ?? []).entries()) {
      if (seen.has(entry)) add([field, String(index)], `${entry} is listed twice`);
      seen.add(entry);
    }
  }
  return problems;
}

function approvalRules(value: MergeRequestApprovals): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const settings = value.settings;
  if (settings?.selective_code_owner_removals === true && settings.reset_approvals_on_push === true)
    problems.push({
      path: ["settings", "selective_code_owner_removals"],
      message:
        "selective_code_owner_removals can be enabled only while reset_approvals_on_push is false (GitLab refuses both)",
      sameAs: ["settings", "reset_approvals_on_push"],
    });
  const items = Object.entries(value.rules?.items ?? {});
  const anyApprover = items.filter(
    ([, written]) => written !== null && typeOf(written) === "any_approver",
  );
  for (const [name] of anyApprover.slice(1))
    problems.push({
      path: ["rules", "items", name, "rule_type"],
      message: `a project has at most one any_approver rule (${JSON.stringify(anyApprover[0]![0])} is one already): GitLab answers a second with 400 "any-approver for the project already exists"`,
    });
  for (const [name, written] of items)
    if (written !== null) problems.push(...ruleProblems(name, written));
  return problems;
}

/** The settings are one resource a field; the rules one collection (authoritative mode is about all of it). */
function defines(value: MergeRequestApprovals): Defined[] {
  return [
    ...Object.keys(value.settings ?? {}).map((field) => ({
      id: `settings.${field}`,
      path: ["settings", field],
      what: `the approval setting ${field}`,
    })),
    ...(value.rules === undefined
      ? []
      : [{ id: "rules", path: ["rules"], what: "the approval rules" }]),
  ];
}

function print(value: MergeRequestApprovals): PrintBlock[] {
  return [
    ...(value.settings === undefined
      ? []
      : [{ kind: "merge_request_approvals", name: "settings", path: ["settings"] }]),
    ...(value.rules === undefined
      ? []
      : [
          {
            ...modeBlock("merge_request_approvals", value.rules.mode),
            name: "rules/*",
            path: ["rules", "mode"],
          },
          ...Object.entries(value.rules.items ?? {}).map(([name, written]): PrintBlock =>
            written === null
              ? {
                  kind: "merge_request_approvals",
                  name: `rules/${name}`,
                  path: ["rules", "items", name],
                  means: [["must be absent", true]],
                }
              : {
                  kind: "merge_request_approvals",
                  name: `rules/${name}`,
                  path: ["rules", "items", name],
                  ...(written.rule_type === undefined
                    ? { defaults: [["rule_type", "regular"]] }
                    : {}),
                },
          ),
        ]),
  ];
}

export const mergeRequestApprovalsSetting = defineSetting({
  key: "merge_request_approvals",
  schema: mergeRequestApprovals.describe(
    "The project's merge-request approvals (GitLab Premium): settings (POST /projects/:id/approvals) and approval rules by name.",
  ),
  rules: approvalRules,
  defines,
  print,
});
