/**
 * How GitHub Actions permissions are written: `actions: {…}` of a repository (with `enabled` and
 * `access_level`) or of an organization (with `enabled_repositories` and the repositories it
 * selects, by name). A setting that applies only when another has a value is refused at load
 * without it.
 */
import * as z from "zod";
import { closed, name } from "../../config/fields.js";
import { defineSetting, type RuleProblem } from "../../config/spec.js";

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

export type SelectedActions = z.output<typeof selectedActions>;
export type ActionsPolicy = z.output<z.ZodObject<typeof policy>>;

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

function report(issues: readonly Issue[], ctx: z.core.$RefinementCtx): void {
  for (const issue of issues) ctx.addIssue({ code: "custom", ...issue });
}

const repositoryActions = closed({
  enabled: z.boolean().optional().describe("Whether GitHub Actions runs in the repository."),
  ...policy,
  access_level: z
    .enum(["none", "user", "organization"])
    .optional()
    .describe(
      "Who outside the repository may use its actions and reusable workflows: none, user (the owner's private repositories) or organization (the organization's).",
    ),
})
  .superRefine((value, ctx) =>
    report(policyIssues(value, value.enabled === true, "with enabled: true"), ctx),
  )
  .describe("The repository's GitHub Actions permissions; a field not written is left as it is.");

const organizationActions = closed({
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
  .superRefine((value, ctx) =>
    report(
      [
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
      ],
      ctx,
    ),
  )
  .describe("The organization's GitHub Actions permissions; a field not written is left as it is.");

/**
 * `access_level: user` shares with the owner's private repositories, `organization` with the
 * organization's: each only where the owner is one (the access schema's description).
 */
function accessRules(value: RepositoryActions, entry: { ownerType?: string }): RuleProblem[] {
  const level = value.access_level;
  if (level === undefined || level === "none" || entry.ownerType === undefined) return [];
  if (level === entry.ownerType) return [];
  return [
    {
      path: ["access_level"],
      message: `access_level ${level} is for repositories owned by ${level === "user" ? "a user" : "an organization"}; this entry's owner_type is ${entry.ownerType}`,
    },
  ];
}

export type RepositoryActions = z.output<typeof repositoryActions>;
export type OrganizationActions = z.output<typeof organizationActions>;

const print = () => [{ kind: "actions", name: "*", path: [] }];
const defines = () => [{ id: "actions", path: [], what: "the Actions permissions" }];

export const repositoryActionsSetting = defineSetting({
  key: "actions",
  schema: repositoryActions,
  rules: accessRules,
  defines,
  print,
});

export const organizationActionsSetting = defineSetting({
  key: "actions",
  schema: organizationActions,
  defines,
  print,
});
