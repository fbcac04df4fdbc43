/**
 * How push rules are written: `push_rules:` in `project_defaults`, `project_profiles` and `projects`
 * entries (`PUT /projects/:id/push_rule`) and in `groups` entries (`PUT /groups/:id/push_rule`). The
 * fields are exactly those of GitLab's "Project push rules API" and "Group push rules API"
 * (doc/api/project_push_rules.md, doc/api/group_push_rules.md): the same thirteen for both. Every
 * one is a Premium feature (ee/app/models/gitlab_subscriptions/features.rb lists `push_rules` with
 * the Starter features, which Premium includes, and `commit_committer_check`,
 * `commit_committer_name_check`, `reject_unsigned_commits` and `reject_non_dco_commits` with the
 * Premium ones), so no field needs a higher tier than the endpoint: on Free the endpoint itself
 * answers 404 and the plan reports that answer.
 *
 * A field not written is left as GitLab has it (GitLab's default when the rule is created);
 * `push_rules: null` means the project or group has no push rule (it is deleted, with
 * --allow-delete).
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { type Defined, defineSetting, type PrintBlock } from "../../config/spec.js";

/** The regular-expression fields: RE2 expressions ("" or null live: no rule). */
export const REGEX_FIELDS = [
  "commit_message_regex",
  "commit_message_negative_regex",
  "branch_name_regex",
  "author_email_regex",
  "file_name_regex",
] as const;

export const BOOLEAN_FIELDS = [
  "deny_delete_tag",
  "member_check",
  "prevent_secrets",
  "commit_committer_check",
  "commit_committer_name_check",
  "reject_unsigned_commits",
  "reject_non_dco_commits",
] as const;

export const PUSH_RULE_FIELDS = [...BOOLEAN_FIELDS, ...REGEX_FIELDS, "max_file_size"] as const;
export type PushRuleField = (typeof PUSH_RULE_FIELDS)[number];

const WORDS: Record<PushRuleField, string> = {
  deny_delete_tag: "Tags cannot be deleted.",
  member_check: "Only existing GitLab users may author commits (by author email).",
  prevent_secrets: "Files that are likely to contain secrets are rejected.",
  commit_committer_check:
    "Only commits whose committer email is one of the pusher's verified emails are accepted.",
  commit_committer_name_check:
    "Only commits whose author name matches the pusher's GitLab account name are accepted.",
  reject_unsigned_commits: "Unsigned commits are rejected.",
  reject_non_dco_commits: "Commits without a DCO sign-off are rejected.",
  commit_message_regex: 'Every commit message must match this RE2 expression; "": no rule.',
  commit_message_negative_regex: 'No commit message may match this RE2 expression; "": no rule.',
  branch_name_regex: 'Every branch name must match this RE2 expression; "": no rule.',
  author_email_regex: 'Every commit author email must match this RE2 expression; "": no rule.',
  file_name_regex: 'No committed file name may match this RE2 expression; "": no rule.',
  max_file_size: "The largest file a push may add, in MB; 0: no limit.",
};

/**
 * An expression GitLab would refuse: it validates each with RE2 (`untrusted_regexp`, "not valid RE2
 * syntax"). JavaScript's parser stands in for RE2 here, RE2's inline flags (`(?i)`, `(?s:…)`) read
 * as plain groups; lookarounds and backreferences, which RE2 lacks, are refused by name.
 */
function regexProblem(text: string): string | undefined {
  if (/\(\?<?[=!]|\\[1-9]/.test(text)) {
    return "RE2 (GitLab's regular expressions) has no lookarounds or backreferences";
  }
  try {
    new RegExp(text.replace(/\(\?[imsU-]+\)/g, "").replace(/\(\?[imsU-]+:/g, "(?:"));
    return undefined;
  } catch (error) {
    return `not a valid regular expression: ${(error as Error).message}`;
  }
}

const regex = (field: PushRuleField) =>
  z
    .string()
    .superRefine((text, context) => {
      const problem = regexProblem(text);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
    })
    .optional()
    .describe(WORDS[field]);

export const pushRule = closed({
  ...(Object.fromEntries(
    BOOLEAN_FIELDS.map((field) => [field, z.boolean().optional().describe(WORDS[field])]),
  ) as Record<(typeof BOOLEAN_FIELDS)[number], z.ZodOptional<z.ZodBoolean>>),
  ...(Object.fromEntries(REGEX_FIELDS.map((field) => [field, regex(field)])) as Record<
    (typeof REGEX_FIELDS)[number],
    ReturnType<typeof regex>
  >),
  max_file_size: z.int().min(0).optional().describe(WORDS.max_file_size),
});

export type PushRule = z.output<typeof pushRule>;

const pushRules = orNull(pushRule).describe(
  "The push rule (GitLab Premium): the fields written are managed, the others left as GitLab has them; null: no push rule may exist (it is deleted, with --allow-delete).",
);
export type PushRules = z.output<typeof pushRules>;

/** The push rule is one resource: one rule a project or group, created, updated or deleted whole. */
function defines(): Defined[] {
  return [{ id: "push_rule", path: [], what: "the push rule" }];
}

function print(value: PushRules): PrintBlock[] {
  return [
    value === null
      ? { kind: "push_rules", name: "push_rule", path: [], means: [["must be absent", true]] }
      : { kind: "push_rules", name: "push_rule", path: [] },
  ];
}

export const pushRulesSetting = defineSetting({
  key: "push_rules",
  schema: pushRules,
  defines,
  print,
});
