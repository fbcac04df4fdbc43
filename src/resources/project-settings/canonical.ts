import * as z from "zod";
import { FEATURES, FLAGS } from "./settings.js";

export const KIND = "project_settings";

/**
 * GitLab's answer to `GET /projects/:id` as far as the planner reads it. Every settings field is
 * optional: GitLab leaves out what the caller may not see and what the tier lacks, and a field the
 * value writes that the answer lacks is an error for the change, never a value to overwrite.
 */
const optionalText = z.string().nullable().optional();
export const projectAnswer = {
  name: "a project",
  schema: z.looseObject({
    id: z.number().int(),
    path_with_namespace: z.string(),
    path: z.string().optional(),
    namespace: z.looseObject({ id: z.number().int() }).optional(),
    archived: z.boolean().optional(),
    description: optionalText,
    topics: z.array(z.string()).optional(),
    visibility: z.enum(["private", "internal", "public"]).optional(),
    default_branch: z.string().nullable().optional(),
    merge_method: z.string().optional(),
    squash_option: z.string().optional(),
    merge_commit_template: optionalText,
    squash_commit_template: optionalText,
    ci_config_path: optionalText,
    auto_cancel_pending_pipelines: z.string().optional(),
    build_timeout: z.number().int().optional(),
    ...Object.fromEntries(FLAGS.map((flag) => [flag, z.boolean().optional()])),
    ...Object.fromEntries(FEATURES.map((field) => [field, z.string().optional()])),
  }),
};

export type ProjectAnswer = z.infer<typeof projectAnswer.schema>;

export const branchAnswer = { name: "a branch", schema: z.looseObject({ name: z.string() }) };

/**
 * The keys one `project` change does not compare and send: those with changes of their own, and
 * the lifecycle's, which say what to do rather than what GitLab keeps.
 */
export const OWN_CHANGES = [
  "visibility",
  "default_branch",
  "archived",
  "archived_repositories",
  "create",
  "previously",
] as const;

/**
 * Topics as GitLab keeps them, for comparing: a set, ignoring case (GitLab reuses an existing
 * topic whatever the case written, Projects::Topic `find_by_name_case_insensitive`), sorted.
 */
export function topicKeys(topics: readonly string[]): string[] {
  return [...new Set(topics.map((name) => name.toLowerCase()))].sort();
}

/** The live value of a field in the shape it is compared in; undefined: GitLab did not show it. */
export function liveValue(answer: Readonly<Record<string, unknown>>, field: string): unknown {
  const value = answer[field];
  if (field === "topics" && Array.isArray(value)) return [...(value as string[])].sort();
  return value;
}

/** Whether a written value and GitLab's agree, as GitLab compares them. */
export function agrees(field: string, wanted: unknown, live: unknown): boolean {
  if (field === "topics" && Array.isArray(wanted) && Array.isArray(live)) {
    return (
      JSON.stringify(topicKeys(wanted as string[])) === JSON.stringify(topicKeys(live as string[]))
    );
  }
  // A project without a description shows null; writing "" leaves it as empty as that.
  if (field === "description" && wanted === "" && live === null) return true;
  return JSON.stringify(wanted) === JSON.stringify(live ?? null);
}
