/**
 * How a GitLab project's protected branches are written (`protected_branches: {mode, branches}` in
 * `project_defaults`, `project_profiles` and `projects` entries), keyed by branch name or wildcard
 * (`release/*` is a protection of its own, as GitLab keeps it). A field not written is left as
 * GitLab has it (GitLab's default at creation); `null` means the branch must not be protected.
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type PrintBlock } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";
import { accessList, BRANCH_LEVELS } from "../protected-ref-access.js";

export const protection = closed({
  push: accessList(BRANCH_LEVELS, "may push", true).optional(),
  merge: accessList(BRANCH_LEVELS, "may merge", false).optional(),
  unprotect: accessList(BRANCH_LEVELS, "may unprotect (Premium)", false)
    .refine((list) => !list.includes("no_one") && !list.includes(0), {
      error: 'unprotect takes no "no_one": GitLab: "Access level No access is not available"',
    })
    .optional(),
  allow_force_push: z
    .boolean()
    .optional()
    .describe("Whoever may push may also force push (GitLab's default: false)."),
  code_owner_approval_required: z
    .boolean()
    .optional()
    .describe("Pushes matching CODEOWNERS need code owner approval (Premium; default false)."),
});

const protectedBranches = closed({
  mode: modeField("protected branches"),
  branches: z
    .record(
      z.string().min(1).max(255),
      orNull(protection).describe(
        "The protection of this branch or wildcard; null means it must not be protected.",
      ),
    )
    .optional()
    .describe("Protections by branch name or wildcard (release/*), compared as written."),
});

export type Protection = z.output<typeof protection>;
export type ProtectedBranches = z.output<typeof protectedBranches>;

function print(value: ProtectedBranches): PrintBlock[] {
  return [
    modeBlock("protected_branches", value.mode),
    ...Object.keys(value.branches ?? {}).map((name): PrintBlock => ({
      kind: "protected_branches",
      name,
      path: ["branches", name],
    })),
  ];
}

export const protectedBranchesSetting = defineSetting({
  key: "protected_branches",
  schema: protectedBranches.describe(
    "The GitLab project's protected branches: mode (additive or authoritative) and branches by name or wildcard. Changed by PATCH with the entries' ids, never left unprotected, except on a tier whose PATCH cannot change a field (applied only with --allow-protection-gap).",
  ),
  // Authoritative mode is about the whole list: it is one setting, defined once per project.
  defines: () => [{ id: "protected_branches", path: [], what: "the protected branch list" }],
  print,
});
