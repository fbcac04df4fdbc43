import * as z from "zod";
import { FLAGS, PROTECTION_LEVELS, type ProtectionLevel } from "./settings.js";

export const KIND = "group_settings";

/**
 * GitLab's answer to `GET /groups/:id` as far as the planner reads it. Every settings field is
 * optional: GitLab leaves out what the tier lacks and what only top-level groups have, and a field
 * the value writes that the answer lacks is an error for the change, never a value to overwrite.
 */
const access = z.array(z.looseObject({ access_level: z.number().int() }));
export const groupAnswer = {
  name: "a group",
  schema: z.looseObject({
    id: z.number().int(),
    full_path: z.string(),
    parent_id: z.number().int().nullable().optional(),
    visibility: z.enum(["private", "internal", "public"]).optional(),
    description: z.string().nullable().optional(),
    project_creation_level: z.string().optional(),
    subgroup_creation_level: z.string().optional(),
    two_factor_grace_period: z.number().int().optional(),
    default_branch: z.string().nullable().optional(),
    default_branch_protection_defaults: z
      .looseObject({
        allowed_to_push: access.optional(),
        allowed_to_merge: access.optional(),
        allow_force_push: z.boolean().optional(),
        developer_can_initial_push: z.boolean().optional(),
      })
      .optional(),
    shared_runners_setting: z.string().optional(),
    enabled_git_access_protocol: z.string().optional(),
    wiki_access_level: z.string().optional(),
    ...Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, z.boolean().optional()])),
  }),
};

export type GroupAnswer = z.infer<typeof groupAnswer.schema>;

const NAMES = new Map<number, string>(
  Object.entries(PROTECTION_LEVELS).map(([name, level]) => [level, name]),
);

/** Access levels by name, sorted: a level GitLab shows that has no name keeps its number. */
function levelNames(entries: ReadonlyArray<{ access_level: number }>): Array<string | number> {
  return entries
    .map((entry) => NAMES.get(entry.access_level) ?? entry.access_level)
    .sort((a, b) => String(a).localeCompare(String(b)));
}

/** The live value of a field in the shape the configuration writes it; undefined: not shown. */
export function liveValue(answer: Readonly<Record<string, unknown>>, field: string): unknown {
  const value = answer[field];
  if (field === "default_branch_protection_defaults" && value !== undefined && value !== null) {
    const shown = value as GroupAnswer["default_branch_protection_defaults"] & object;
    return {
      ...(shown.allowed_to_push === undefined
        ? {}
        : { allowed_to_push: levelNames(shown.allowed_to_push) }),
      ...(shown.allowed_to_merge === undefined
        ? {}
        : { allowed_to_merge: levelNames(shown.allowed_to_merge) }),
      ...(shown.allow_force_push === undefined ? {} : { allow_force_push: shown.allow_force_push }),
      ...(shown.developer_can_initial_push === undefined
        ? {}
        : { developer_can_initial_push: shown.developer_can_initial_push }),
    };
  }
  // A group without a description shows null; the configuration writes it "".
  if (field === "description" && value === null) return "";
  return value;
}

/** A written protection default in the compared shape: its levels sorted. */
export function writtenValue(field: string, value: unknown): unknown {
  if (field !== "default_branch_protection_defaults") return value;
  const written = { ...(value as Record<string, unknown>) };
  for (const key of ["allowed_to_push", "allowed_to_merge"]) {
    const list = written[key] as ProtectionLevel[] | undefined;
    if (list !== undefined) written[key] = [...list].sort();
  }
  return written;
}

/** The protection defaults as GitLab's `PUT` takes them: levels as `{access_level}` entries. */
export function protectionBody(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...value };
  for (const key of ["allowed_to_push", "allowed_to_merge"]) {
    const list = value[key] as Array<ProtectionLevel | number> | undefined;
    if (list !== undefined) {
      body[key] = list.map((name) => ({
        access_level: typeof name === "number" ? name : PROTECTION_LEVELS[name],
      }));
    }
  }
  return body;
}
