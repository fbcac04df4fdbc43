/**
 * How GitHub Actions permissions are written: `actions: {…}` of a repository (with `enabled` and
 * `access_level`) or of an organization (with `enabled_repositories` and the repositories it
 * selects, by name). A setting that applies only when another has a value is refused at load
 * without it.
 */
import * as z from "zod";
import { closed, name } from "../../config/fields.js";
import type { RuleProblem } from "../../config/spec.js";

const selectedActions = closed({
  github_owned_allowed: z
    .boolean()
    .optional()
    .describe("Whether GitHub-owned actions (the actions organization's) are allowed."),
  verified_allowed: z
    .boolean()
    .optional()
    .describe("Whether actions of GitHub Marketplace verified creators are allowed."),
  patterns_allowed: z
    .array(name("A pattern such as monalisa/octocat@*, monalisa/*, or an action at a SHA."))
    .optional()
    .describe(
      "Further actions and reusable workflows allowed, as patterns (a set; GitHub applies them to public repositories).",
    ),
}).describe("Which actions may run when allowed_actions is selected.");

/** What repositories and organizations have alike. */
const policy = {
  allowed_actions: z
    .enum(["all", "local_only", "selected"])
    .optional()
    .describe(
      "Which actions and reusable workflows may run: all, local_only (of this owner), or selected (selected_actions).",
    ),
  sha_pinning_required: z
    .boolean()
    .optional()
    .describe("Whether actions must be pinned to a full-length commit SHA."),
  selected_actions: selectedActions.optional(),
  default_workflow_permissions: z
    .enum(["read", "write"])
    .optional()
    .describe("The permissions the GITHUB_TOKEN of a workflow run has by default."),
  can_approve_pull_request_reviews: z
    .boolean()
    .optional()
    .describe("Whether GitHub Actions can approve pull requests (a security risk when true)."),
};

export interface SelectedActions {
  github_owned_allowed?: boolean;
  verified_allowed?: boolean;
  patterns_allowed?: string[];
}

export interface ActionsPolicy {
  allowed_actions?: "all" | "local_only" | "selected";
  sha_pinning_required?: boolean;
  selected_actions?: SelectedActions;
  default_workflow_permissions?: "read" | "write";
  can_approve_pull_request_reviews?: boolean;
}

export interface RepositoryActions extends ActionsPolicy {
  enabled?: boolean;
  access_level?: "none" | "user" | "organization";
}

export interface OrganizationActions extends ActionsPolicy {
  enabled_repositories?: "all" | "none" | "selected";
  selected_repositories?: string[];
}

type Issue = { path: string[]; message: string };

/**
 * A setting that applies only when another has a value: the actions allowed apply only where
 * Actions runs, selected actions only with `allowed_actions: selected` ("To use this endpoint, the
 * repository permission policy for `allowed_actions` must be configured to `selected`", the
 * selected-actions operations' descriptions), selected repositories only with
 * `enabled_repositories: selected` (likewise for `…/permissions/repositories`).
 */
function policyIssues(value: ActionsPolicy, runs: boolean, where: string): Issue[] {
  const issues: Issue[] = [];
  if (value.selected_actions !== undefined && value.allowed_actions !== "selected") {
    issues.push({
      path: ["selected_actions"],
      message: "selected_actions applies only with allowed_actions: selected",
    });
  }
  if (!runs) {
    for (const key of ["allowed_actions", "sha_pinning_required"] as const) {
      if (value[key] !== undefined) {
        issues.push({ path: [key], message: `${key} applies only ${where}` });
      }
    }
  }
  return issues;
}

function refine<T>(check: (value: T) => Issue[]) {
  return (value: T, ctx: z.core.$RefinementCtx) => {
    for (const issue of check(value)) ctx.addIssue({ code: "custom", ...issue });
  };
}

export const repositoryActions = closed({
  enabled: z.boolean().optional().describe("Whether GitHub Actions runs in the repository."),
  ...policy,
  access_level: z
    .enum(["none", "user", "organization"])
    .optional()
    .describe(
      "Who outside the repository may use its actions and reusable workflows: none, user (the owner's private repositories) or organization (the organization's).",
    ),
})
  .superRefine(
    refine((value: RepositoryActions) =>
      policyIssues(value, value.enabled === true, "with enabled: true"),
    ),
  )
  .describe("The repository's GitHub Actions permissions; a field not written is left as it is.");

export const organizationActions = closed({
  enabled_repositories: z
    .enum(["all", "none", "selected"])
    .optional()
    .describe("Which repositories may run GitHub Actions: all, none, or selected."),
  selected_repositories: z
    .array(name("A repository of the organization, by name."))
    .optional()
    .describe(
      "The repositories that may run GitHub Actions when enabled_repositories is selected (a set).",
    ),
  ...policy,
})
  .superRefine(
    refine((value: OrganizationActions) => [
      ...(value.selected_repositories !== undefined && value.enabled_repositories !== "selected"
        ? [
            {
              path: ["selected_repositories"],
              message: "selected_repositories applies only with enabled_repositories: selected",
            },
          ]
        : []),
      ...policyIssues(
        value,
        value.enabled_repositories === "all" || value.enabled_repositories === "selected",
        "with enabled_repositories: all or selected",
      ),
    ]),
  )
  .describe("The organization's GitHub Actions permissions; a field not written is left as it is.");

/**
 * `access_level: user` shares with the owner's private repositories, `organization` with the
 * organization's: each only where the owner is one (the access schema's description).
 */
export function accessRules(value: unknown, entry: { ownerType?: string }): RuleProblem[] {
  const level = (value as RepositoryActions).access_level;
  if (level === undefined || level === "none" || entry.ownerType === undefined) return [];
  if (level === entry.ownerType) return [];
  return [
    {
      path: ["access_level"],
      message: `access_level ${level} is for repositories owned by ${level === "user" ? "a user" : "an organization"}; this entry's owner_type is ${entry.ownerType}`,
    },
  ];
}
