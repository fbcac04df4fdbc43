import * as z from "zod";
import { BOOLEAN_FIELDS, type PushRule, type PushRuleField, REGEX_FIELDS } from "./settings.js";

/**
 * GitLab's push rule as `GET /projects/:id/push_rule` and `GET /groups/:id/push_rule` answer it
 * (docs, "Project push rules API", "Group push rules API"). GitLab answers three booleans that were
 * never set as null ("If the following attributes are disabled, they return null instead of
 * false": commit_committer_check, reject_unsigned_commits, reject_non_dco_commits) and an
 * expression never set as null or "" (the project example shows "", the group example null).
 * Every field is required: an answer without one is not a push rule as GitLab documents it.
 */
const flag = z.boolean().nullable();
const expression = z.string().nullable();

export const pushRuleSchema = z.looseObject({
  id: z.number().int(),
  ...(Object.fromEntries(BOOLEAN_FIELDS.map((field) => [field, flag])) as Record<
    (typeof BOOLEAN_FIELDS)[number],
    typeof flag
  >),
  ...(Object.fromEntries(REGEX_FIELDS.map((field) => [field, expression])) as Record<
    (typeof REGEX_FIELDS)[number],
    typeof expression
  >),
  max_file_size: z.number().int(),
});

export type PushRuleAnswer = z.infer<typeof pushRuleSchema>;

/**
 * A project's push rule: GitLab answers 200 with `null` when none was ever configured (docs: "If
 * push rules were never configured for the project, returns HTTP 200 OK with the literal string
 * "null""). A group's has no such answer: 404 when it has none.
 */
export const projectPushRuleAnswer = {
  name: "a push rule (or null)",
  schema: pushRuleSchema.nullable(),
};
export const groupPushRuleAnswer = { name: "a push rule", schema: pushRuleSchema };

/** A field's live value in the form it is compared in: null booleans false, null expressions "". */
export function liveField(answer: PushRuleAnswer, field: PushRuleField): boolean | string | number {
  const value = answer[field];
  if (field === "max_file_size") return value as number;
  if ((REGEX_FIELDS as readonly string[]).includes(field)) return (value as string | null) ?? "";
  return (value as boolean | null) ?? false;
}

/** The live rule in the configuration's form, every field. */
export function canonicalRule(answer: PushRuleAnswer): Required<PushRule> {
  return Object.fromEntries(
    [...BOOLEAN_FIELDS, ...REGEX_FIELDS, "max_file_size" as const].map((field) => [
      field,
      liveField(answer, field),
    ]),
  ) as Required<PushRule>;
}
