import { attached } from "../../core/attached.js";
import type { GitlabWorld, Group, Project } from "../world/records.js";

/**
 * Push rules (GitLab Premium): at most one a project and one a group, kept beside the world's
 * record. The fields are those of GitLab's "Project push rules API" and "Group push rules API".
 */

export const REGEX_FIELDS = [
  "commit_message_regex",
  "commit_message_negative_regex",
  "branch_name_regex",
  "author_email_regex",
  "file_name_regex",
] as const;

/** Booleans GitLab answers false until set. */
export const PLAIN_FLAGS = [
  "deny_delete_tag",
  "member_check",
  "prevent_secrets",
  "commit_committer_name_check",
] as const;

/**
 * Booleans GitLab answers null until set: "If the following attributes are disabled, they return
 * null instead of false" (docs, "Project push rules API").
 */
export const NULLABLE_FLAGS = [
  "commit_committer_check",
  "reject_unsigned_commits",
  "reject_non_dco_commits",
] as const;

export const FIELDS = [
  ...PLAIN_FLAGS,
  ...NULLABLE_FLAGS,
  ...REGEX_FIELDS,
  "max_file_size",
] as const;
export type Field = (typeof FIELDS)[number];

export type PushRuleRecord = {
  id: number;
  created_at: string;
  max_file_size: number;
} & Record<(typeof PLAIN_FLAGS)[number], boolean> &
  Record<(typeof NULLABLE_FLAGS)[number], boolean | null> &
  Record<(typeof REGEX_FIELDS)[number], string | null>;

/** The holder of a project's or group's rule; `rule` undefined: none. */
export const projectRuleOf = attached((_project: Project): { rule?: PushRuleRecord } => ({}));
export const groupRuleOf = attached((_group: Group): { rule?: PushRuleRecord } => ({}));

/** The world's next push-rule id. */
export const pushRuleIds = attached((_world: GitlabWorld) => ({ next: 1 }));

/** A new rule as GitLab makes it: its defaults, then the fields given. */
export function newRule(
  world: GitlabWorld,
  createdAt: string,
  fields: Partial<Record<Field, unknown>>,
): PushRuleRecord {
  const ids = pushRuleIds(world);
  const rule: PushRuleRecord = {
    id: ids.next++,
    created_at: createdAt,
    deny_delete_tag: false,
    member_check: false,
    prevent_secrets: false,
    commit_committer_name_check: false,
    commit_committer_check: null,
    reject_unsigned_commits: null,
    reject_non_dco_commits: null,
    commit_message_regex: null,
    commit_message_negative_regex: null,
    branch_name_regex: null,
    author_email_regex: null,
    file_name_regex: null,
    max_file_size: 0,
  };
  return Object.assign(rule, fields);
}
