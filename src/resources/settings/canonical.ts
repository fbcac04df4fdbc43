/**
 * The repository's settings in one canonical shape, whether read (GitHub's Full Repository) or
 * written (the configuration): a description or homepage that is empty is none (null), topics are
 * a sorted set, security features are their status by name, bypass reviewers a sorted set with
 * GitHub's default mode. Desired and live values in this shape are compared with `diffValues`.
 */
import * as z from "zod";
import type { Shape } from "../context.js";
import type { RepositorySettings, SecurityAndAnalysis } from "./settings.js";

const status = z.enum(["enabled", "disabled"]);
const member = z.looseObject({ status: status.optional() }).optional();

/** The answer of `GET /repos/{owner}/{repo}` as far as the planner reads it. */
export const fullRepository = {
  name: "a Full Repository",
  schema: z.looseObject({
    id: z.number().int(),
    name: z.string(),
    owner: z.looseObject({ login: z.string() }),
    private: z.boolean(),
    archived: z.boolean(),
    visibility: z.string().optional(),
    description: z.string().nullable().optional(),
    homepage: z.string().nullable().optional(),
    default_branch: z.string().optional(),
    has_issues: z.boolean().optional(),
    has_projects: z.boolean().optional(),
    has_wiki: z.boolean().optional(),
    is_template: z.boolean().optional(),
    allow_forking: z.boolean().optional(),
    allow_merge_commit: z.boolean().optional(),
    allow_squash_merge: z.boolean().optional(),
    allow_rebase_merge: z.boolean().optional(),
    allow_auto_merge: z.boolean().optional(),
    delete_branch_on_merge: z.boolean().optional(),
    allow_update_branch: z.boolean().optional(),
    squash_merge_commit_title: z.string().optional(),
    squash_merge_commit_message: z.string().optional(),
    merge_commit_title: z.string().optional(),
    merge_commit_message: z.string().optional(),
    web_commit_signoff_required: z.boolean().optional(),
    topics: z.array(z.string()).optional(),
    security_and_analysis: z
      .looseObject({
        secret_scanning_delegated_bypass_options: z
          .looseObject({
            reviewers: z
              .array(
                z.looseObject({
                  reviewer_id: z.number().int(),
                  reviewer_type: z.string(),
                  mode: z.string().optional(),
                }),
              )
              .optional(),
          })
          .optional(),
      })
      .catchall(member)
      .nullish(),
  }),
} satisfies Shape<unknown>;

export type FullRepository = z.infer<typeof fullRepository.schema>;

/** The fields one `PATCH /repos/{owner}/{repo}` carries, in the order plans show them. */
export const PATCH_FIELDS = [
  "description",
  "homepage",
  "has_issues",
  "has_projects",
  "has_wiki",
  "is_template",
  "allow_forking",
  "allow_merge_commit",
  "allow_squash_merge",
  "allow_rebase_merge",
  "allow_auto_merge",
  "delete_branch_on_merge",
  "allow_update_branch",
  "squash_merge_commit_title",
  "squash_merge_commit_message",
  "merge_commit_title",
  "merge_commit_message",
  "web_commit_signoff_required",
] as const;
export type PatchField = (typeof PATCH_FIELDS)[number];

export const SECURITY_FEATURES = [
  "advanced_security",
  "code_security",
  "secret_scanning",
  "secret_scanning_push_protection",
  "secret_scanning_ai_detection",
  "secret_scanning_non_provider_patterns",
  "secret_scanning_delegated_alert_dismissal",
  "secret_scanning_delegated_bypass",
] as const;
export type SecurityFeature = (typeof SECURITY_FEATURES)[number];

export interface Reviewer {
  reviewer_id: number;
  reviewer_type: string;
  mode: string;
}

/** Security features by name, and the delegated bypass's reviewers under their own key. */
export type CanonicalSecurity = Partial<Record<SecurityFeature, string>> & {
  bypass_reviewers?: Reviewer[];
};

function reviewerSet(
  reviewers: ReadonlyArray<{
    reviewer_id: number;
    reviewer_type: string;
    mode?: string | undefined;
  }>,
): Reviewer[] {
  const unique = new Map<string, Reviewer>();
  for (const reviewer of reviewers) {
    unique.set(`${reviewer.reviewer_type}:${reviewer.reviewer_id}`, {
      reviewer_id: reviewer.reviewer_id,
      reviewer_type: reviewer.reviewer_type,
      // "The bypass mode for the reviewer", "default": "ALWAYS" (the request schema).
      mode: reviewer.mode ?? "ALWAYS",
    });
  }
  return [...unique.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, value]) => value);
}

/** A text GitHub reads back as null when it was written empty. */
export function noneIfEmpty<T>(text: T): T | null {
  return text === "" ? null : text;
}

export function topicSet(topics: readonly string[]): string[] {
  return [...new Set(topics)].sort();
}

/** The desired security features in the canonical shape. */
export function desiredSecurity(value: SecurityAndAnalysis): CanonicalSecurity {
  const canonical: CanonicalSecurity = {};
  for (const feature of SECURITY_FEATURES) {
    const wanted = value[feature];
    if (wanted !== undefined) canonical[feature] = wanted.status;
  }
  const reviewers = value.secret_scanning_delegated_bypass_options?.reviewers;
  if (reviewers !== undefined) canonical.bypass_reviewers = reviewerSet(reviewers);
  return canonical;
}

/** The live security features GitHub reports; a feature it does not report is absent. */
export function liveSecurity(answer: FullRepository): CanonicalSecurity {
  const read = answer.security_and_analysis ?? {};
  const canonical: CanonicalSecurity = {};
  for (const feature of SECURITY_FEATURES) {
    const found = (read[feature] as { status?: string } | undefined)?.status;
    if (found !== undefined) canonical[feature] = found;
  }
  const reviewers = read.secret_scanning_delegated_bypass_options?.reviewers;
  if (reviewers !== undefined) canonical.bypass_reviewers = reviewerSet(reviewers);
  return canonical;
}

/** The PATCH fields a value writes, canonical. */
export function desiredFields(value: RepositorySettings): Partial<Record<PatchField, unknown>> {
  const fields: Partial<Record<PatchField, unknown>> = {};
  for (const field of PATCH_FIELDS) {
    const wanted = value[field];
    if (wanted !== undefined)
      fields[field] =
        field === "description" || field === "homepage" ? noneIfEmpty(wanted) : wanted;
  }
  return fields;
}

/** The PATCH fields GitHub reports, canonical; a field it leaves out is absent. */
export function liveFields(answer: FullRepository): Partial<Record<PatchField, unknown>> {
  const fields: Partial<Record<PatchField, unknown>> = {};
  for (const field of PATCH_FIELDS) {
    const found = answer[field];
    if (found !== undefined)
      fields[field] = field === "description" || field === "homepage" ? noneIfEmpty(found) : found;
  }
  return fields;
}

/** GitHub's visibility; an answer without it says `private`. */
export function liveVisibility(answer: FullRepository): string {
  return answer.visibility ?? (answer.private ? "private" : "public");
}
