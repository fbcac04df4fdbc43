/** GitLab's protected branch as forgeplan reads it, compares it, and checks a write's answer. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { liveEntry, unkept } from "../protected-ref-access.js";

/**
 * "List protected branches" and the answers of POST and PATCH (docs, "Protected branches API"):
 * `unprotect_access_levels` and `inherited` are Premium's, so optional; an inherited protection
 * is a group's (Premium: "If true, protection settings are inherited from parent group").
 */
export const branchAnswer = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  push_access_levels: z.array(liveEntry),
  merge_access_levels: z.array(liveEntry),
  unprotect_access_levels: z.array(liveEntry).optional(),
  allow_force_push: z.boolean(),
  code_owner_approval_required: z.boolean().optional(),
  inherited: z.boolean().optional(),
});
export type BranchAnswer = z.infer<typeof branchAnswer>;

export const BRANCH_SHAPE = { name: "protected branches", schema: branchAnswer };

/** The three lists, by their key in the value, GitLab's answer and GitLab's write. */
export const LISTS = [
  {
    key: "push",
    answer: "push_access_levels",
    array: "allowed_to_push",
    scalar: "push_access_level",
  },
  {
    key: "merge",
    answer: "merge_access_levels",
    array: "allowed_to_merge",
    scalar: "merge_access_level",
  },
  {
    key: "unprotect",
    answer: "unprotect_access_levels",
    array: "allowed_to_unprotect",
    scalar: "unprotect_access_level",
  },
] as const;

/** A protection as compared and shown: each list's entries by name, sorted, and the two flags. */
export interface CanonicalBranch {
  push?: string[];
  merge?: string[];
  unprotect?: string[];
  allow_force_push?: boolean;
  code_owner_approval_required?: boolean;
}

/**
 * What GitLab did not keep of a POST or PATCH of a protected branch: each list's entries sent
 * (`allowed_to_*` items, the scalar levels) that its answer lacks, each id destroyed that it still
 * shows, and each flag sent that it answers otherwise.
 */
export function verifyProtectedBranch(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST" && request.method !== "PATCH") return [];
  const parsed = branchAnswer.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "a protected branch", after: "something else" }];
  const answer = parsed.data;
  const sent = (request.body ?? {}) as Record<string, unknown>;
  const problems: DiffEntry[] = [];
  for (const list of LISTS) {
    const entries = answer[list.answer] ?? [];
    const items = [
      ...((sent[list.array] as Array<Record<string, unknown>> | undefined) ?? []),
      ...(typeof sent[list.scalar] === "number" ? [{ access_level: sent[list.scalar] }] : []),
    ];
    for (const item of unkept(items, entries)) {
      problems.push({
        path: list.answer,
        before: item,
        after: item._destroy === true ? "still there" : "not kept",
      });
    }
  }
  for (const flag of ["allow_force_push", "code_owner_approval_required"] as const) {
    if (typeof sent[flag] === "boolean" && answer[flag] !== sent[flag])
      problems.push({ path: flag, before: sent[flag], after: answer[flag] ?? null });
  }
  return problems;
}
