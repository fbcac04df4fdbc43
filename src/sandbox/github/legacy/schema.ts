import { z } from "zod";
import { SECURITY_FEATURES } from "../world/records.js";

/** GitHub's part of the seed format (being divided among the areas). */

const login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, "expected a login");
const timestamp = z.iso.datetime({ message: "expected a date-time like 2026-01-05T10:00:00Z" });
/** A permission level, or the name of one of the organization's custom repository roles. */
const repoRole = z.string().min(1);

/** Branch protection in the write shape of the PUT body, plus `required_signatures` (not settable by PUT). */
const protection = z
  .object({
    required_signatures: z.boolean().optional(),
  })
  .catchall(z.unknown());

/** A ruleset in the write shape of its POST body, with its id; checked like a POST. */
const ruleset = z
  .object({
    id: z.number().int().positive(),
  })
  .catchall(z.unknown());

const hook = z.strictObject({
  id: z.number().int().positive(),
  /** The keys GitHub keeps (hook-config.ts); a seed cannot hold others, as no request can. */
  config: z.strictObject({
    url: z.string(),
    content_type: z.string().optional(),
    secret: z.string().optional(),
    insecure_ssl: z.string().optional(),
  }),
  events: z.array(z.string()).default(["push"]),
  active: z.boolean().default(true),
  branch_filter: z.string().default("*"),
  authorization_header: z.string().optional(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});

const invitation = z.strictObject({
  id: z.number().int().positive(),
  invitee: login,
  inviter: login,
  permissions: z.enum(["read", "write", "admin", "triage", "maintain"]),
  created_at: timestamp,
  expired: z.boolean().default(false),
});

/** GitHub's custom property names: a-z, A-Z, 0-9, _, -, $, #, at most 75 characters. */
const propertyName = z.string().regex(/^[A-Za-z0-9_$#-]{1,75}$/, "expected a custom property name");
const propertyValue = z.union([z.string(), z.array(z.string())]);

/** A custom property definition of an organization, as `PUT /orgs/{org}/properties/schema/{name}` takes it. */
const customProperty = z.strictObject({
  property_name: propertyName,
  value_type: z.enum(["string", "single_select", "multi_select", "true_false", "url"]),
  required: z.boolean().default(false),
  default_value: propertyValue.nullable().default(null),
  description: z.string().nullable().default(null),
  allowed_values: z.array(z.string()).nullable().default(null),
  values_editable_by: z.enum(["org_actors", "org_and_repo_actors"]).default("org_actors"),
});

/** GitHub's secret and variable names: letters, digits and _, not starting with a digit or GITHUB_. */
const actionsName = z
  .string()
  .regex(/^(?!GITHUB_)[A-Za-z_][A-Za-z0-9_]*$/i, "expected a name of letters, digits and _");

const selectedActions = z.strictObject({
  github_owned_allowed: z.boolean().default(true),
  verified_allowed: z.boolean().default(false),
  patterns_allowed: z.array(z.string()).default([]),
});

/** Actions permissions; what is left out is GitHub's default for a new repository or organization. */
const actionsPolicy = {
  allowed_actions: z.enum(["all", "local_only", "selected"]).default("all"),
  sha_pinning_required: z.boolean().default(false),
  selected_actions: selectedActions.default({
    github_owned_allowed: true,
    verified_allowed: false,
    patterns_allowed: [],
  }),
  default_workflow_permissions: z.enum(["read", "write"]).default("read"),
  can_approve_pull_request_reviews: z.boolean().default(false),
};

const repositoryActions = z.strictObject({
  enabled: z.boolean().default(true),
  ...actionsPolicy,
  access_level: z.enum(["none", "user", "organization"]).default("none"),
});

/** A repository's Actions settings as GitHub sets them for a new repository. */
export const DEFAULT_REPOSITORY_ACTIONS = repositoryActions.parse({});

const organizationActions = z.strictObject({
  enabled_repositories: z.enum(["all", "none", "selected"]).default("all"),
  /** With `selected`: repository names of the organization. */
  selected_repositories: z.array(z.string()).default([]),
  ...actionsPolicy,
});

/** Plaintext values: the sandbox keeps only a digest of each secret, as if it had been sent. */
const values = z.record(actionsName, z.string()).default({});

/** An organization variable or secret: its value, and the repositories (by name) it is shared with. */
const shared = z.strictObject({
  name: actionsName,
  value: z.string(),
  visibility: z.enum(["all", "private", "selected"]).default("all"),
  selected_repositories: z.array(z.string()).default([]),
});

/** What `PATCH /orgs/{org}` sets, GitHub's defaults for a new organization where left out. */
const organizationSettings = z.strictObject({
  description: z.string().nullable().default(null),
  company: z.string().nullable().default(null),
  blog: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
  location: z.string().nullable().default(null),
  twitter_username: z.string().nullable().default(null),
  has_organization_projects: z.boolean().default(true),
  has_repository_projects: z.boolean().default(true),
  members_can_create_repositories: z.boolean().default(true),
  members_can_create_public_repositories: z.boolean().default(true),
  members_can_create_private_repositories: z.boolean().default(true),
  members_can_create_internal_repositories: z.boolean().default(false),
  members_can_create_pages: z.boolean().default(true),
  members_can_create_public_pages: z.boolean().default(true),
  members_can_create_private_pages: z.boolean().default(true),
  members_can_fork_private_repositories: z.boolean().default(false),
  web_commit_signoff_required: z.boolean().default(false),
  deploy_keys_enabled_for_repositories: z.boolean().default(true),
  secret_scanning_push_protection_custom_link_enabled: z.boolean().default(false),
  secret_scanning_push_protection_custom_link: z.string().nullable().default(null),
  billing_email: z.string().nullable().default(null),
  created_at: timestamp.default("2026-01-02T09:00:00Z"),
});

/** A label; a repository without `labels` has GitHub's default labels, as a new one does. */
const label = z.strictObject({
  name: z.string().min(1),
  color: z.string().regex(/^[0-9a-fA-F]{6}$/, "expected six hex digits without #"),
  description: z.string().nullable().default(null),
  default: z.boolean().default(false),
});

/** An issue, opened by `author`, carrying labels by name (a name no label has makes one). */
const issue = z.strictObject({
  title: z.string().min(1),
  author: login,
  labels: z.array(z.string().min(1)).default([]),
});

/** A deployment environment, checked like a PUT of it; reviewers by login and team slug. */
const environment = z.strictObject({
  name: z.string().min(1),
  wait_timer: z.number().int().default(0),
  prevent_self_review: z.boolean().default(false),
  reviewers: z
    .strictObject({
      users: z.array(login).default([]),
      teams: z.array(z.string()).default([]),
    })
    .default({ users: [], teams: [] }),
  /** null: every branch; protected branches only; or custom branch and tag name patterns. */
  deployment_branch_policy: z
    .union([
      z.null(),
      z.strictObject({ protected_branches: z.literal(true) }),
      z.strictObject({
        custom: z.array(
          z.strictObject({
            name: z.string().min(1),
            type: z.enum(["branch", "tag"]).default("branch"),
          }),
        ),
      }),
    ])
    .default(null),
  created_at: timestamp.default("2026-01-02T09:00:00Z"),
  variables: values,
  secrets: values,
});

const autolink = z.strictObject({
  id: z.number().int().positive(),
  key_prefix: z.string().min(1),
  url_template: z.string().min(1),
  is_alphanumeric: z.boolean().default(true),
});

const branch = z.strictObject({
  name: z.string().min(1),
  protection: protection.optional(),
});

const featureStatus = z.enum(["enabled", "disabled"]);

/**
 * A repository with GitHub's defaults for a new one: features on, merge options of GitHub's
 * settings page ("Default message"), security features and alerts off, not archived.
 */
export const repositorySeed = z.strictObject({
  full_name: z.string().regex(/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/, "expected OWNER/NAME"),
  id: z.number().int().positive().optional(),
  private: z.boolean().default(true),
  description: z.string().nullable().default(null),
  homepage: z.string().nullable().default(null),
  default_branch: z.string().default("main"),
  has_issues: z.boolean().default(true),
  has_projects: z.boolean().default(true),
  has_wiki: z.boolean().default(true),
  has_discussions: z.boolean().default(false),
  is_template: z.boolean().default(false),
  allow_forking: z.boolean().default(true),
  allow_squash_merge: z.boolean().default(true),
  allow_rebase_merge: z.boolean().default(true),
  allow_merge_commit: z.boolean().default(true),
  allow_auto_merge: z.boolean().default(false),
  delete_branch_on_merge: z.boolean().default(false),
  allow_update_branch: z.boolean().default(false),
  web_commit_signoff_required: z.boolean().default(false),
  squash_merge_commit_title: z
    .enum(["PR_TITLE", "COMMIT_OR_PR_TITLE"])
    .default("COMMIT_OR_PR_TITLE"),
  squash_merge_commit_message: z
    .enum(["PR_BODY", "COMMIT_MESSAGES", "BLANK"])
    .default("COMMIT_MESSAGES"),
  merge_commit_title: z.enum(["PR_TITLE", "MERGE_MESSAGE"]).default("MERGE_MESSAGE"),
  merge_commit_message: z.enum(["PR_BODY", "PR_TITLE", "BLANK"]).default("PR_TITLE"),
  archived: z.boolean().default(false),
  topics: z.array(z.string()).default([]),
  /** security_and_analysis members by name; those not given are disabled. */
  security_and_analysis: z.partialRecord(z.enum(SECURITY_FEATURES), featureStatus).default({}),
  vulnerability_alerts: z.boolean().default(false),
  automated_security_fixes: z.boolean().default(false),
  private_vulnerability_reporting: z.boolean().default(false),
  /** Names the repository had before renames: GitHub redirects them to it. */
  previous_names: z
    .array(z.string().regex(/^[A-Za-z0-9._-]+$/, "expected a repository name"))
    .default([]),
  created_at: timestamp.default("2026-01-02T09:00:00Z"),
  /** Direct grants: pull | triage | push | maintain | admin, or a custom role of the organization. */
  collaborators: z.record(login, repoRole).default({}),
  teams: z.record(z.string(), repoRole).default({}),
  /** Which app last reported each status check: required checks without an app_id are bound to it. */
  recent_checks: z.record(z.string(), z.number().int()).default({}),
  branches: z.array(branch).min(1, "a repository needs at least one branch"),
  hooks: z.array(hook).default([]),
  invitations: z.array(invitation).default([]),
  rulesets: z.array(ruleset).default([]),
  /** Explicit custom property values by name; required properties without one take their default. */
  custom_properties: z.record(propertyName, propertyValue).default({}),
  actions: repositoryActions.default(DEFAULT_REPOSITORY_ACTIONS),
  variables: values,
  secrets: values,
  dependabot_secrets: values,
  labels: z.array(label).optional(),
  issues: z.array(issue).default([]),
  environments: z.array(environment).default([]),
  autolinks: z.array(autolink).default([]),
});

const user = z.strictObject({
  login,
  id: z.number().int().positive(),
  name: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
  token: z.string().min(1).optional(),
  /** The scopes of `token` as a personal access token (classic); left out for any other kind. */
  token_scopes: z.array(z.string().min(1)).optional(),
  site_admin: z.boolean().default(false),
});

const team = z.strictObject({
  slug: z.string().regex(/^[a-z0-9-]+$/, "expected a team slug"),
  id: z.number().int().positive(),
  name: z.string(),
  description: z.string().nullable().default(null),
  /** Visible to every member of the organization (closed), or to its own members only (secret). */
  privacy: z.enum(["secret", "closed"]).default("closed"),
  notification_setting: z
    .enum(["notifications_enabled", "notifications_disabled"])
    .default("notifications_enabled"),
  /** The slug of the parent team, defined earlier in the list. */
  parent: z.string().optional(),
  members: z.record(login, z.enum(["member", "maintainer"])).default({}),
  /** Assigned the organization's predefined security_manager role. */
  security_manager: z.boolean().default(false),
});

const customRole = z.strictObject({
  id: z.number().int().positive(),
  name: z.string().min(1),
  description: z.string().nullable().default(null),
  base_role: z.enum(["read", "triage", "write", "maintain"]),
  permissions: z.array(z.string()).default([]),
});

const organization = z.strictObject({
  login,
  id: z.number().int().positive(),
  name: z.string().nullable().default(null),
  owners: z.array(login).default([]),
  members: z.array(login).default([]),
  /** The permission every member has on every repository of the organization. */
  base_permission: z.enum(["none", "pull", "triage", "push", "maintain", "admin"]).default("pull"),
  teams: z.array(team).default([]),
  custom_repository_roles: z.array(customRole).default([]),
  rulesets: z.array(ruleset).default([]),
  custom_properties: z.array(customProperty).default([]),
  settings: organizationSettings.default(organizationSettings.parse({})),
  hooks: z.array(hook).default([]),
  actions: organizationActions.default(organizationActions.parse({})),
  variables: z.array(shared).default([]),
  secrets: z.array(shared).default([]),
  dependabot_secrets: z.array(shared).default([]),
});

/** Where an App is installed: one account, all of its repositories or those listed, with permissions. */
const installation = z.strictObject({
  id: z.number().int().positive(),
  account: login,
  repository_selection: z.enum(["all", "selected"]).default("all"),
  /** With `selected`: the repositories (OWNER/NAME, of `account`) the installation covers. */
  repositories: z.array(z.string()).default([]),
  /** App permission → read | write | admin, e.g. { administration: write, repository_hooks: read }; metadata is always read. */
  permissions: z.record(z.string(), z.enum(["read", "write", "admin"])).default({}),
  created_at: timestamp.default("2026-01-02T09:00:00Z"),
});

const app = z.strictObject({
  id: z.number().int().positive(),
  slug: z.string().regex(/^[a-z0-9-]+$/, "expected an app slug"),
  name: z.string(),
  owner: login,
  description: z.string().nullable().default(null),
  events: z.array(z.string()).default([]),
  created_at: timestamp.default("2026-01-02T09:00:00Z"),
  /** The public half of the App's key (PEM): JWTs signed with its private key authenticate as it. */
  public_key: z.string().optional(),
  installations: z.array(installation).default([]),
});

const gistFile = z.union([
  z.string(),
  z.strictObject({ content: z.string(), language: z.string() }),
]);

const gist = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{8,40}$/, "expected a hexadecimal gist id"),
  owner: login,
  public: z.boolean(),
  description: z.string().nullable().default(null),
  files: z.record(z.string(), gistFile),
  created_at: timestamp,
  updated_at: timestamp,
});

const migration = z.strictObject({
  id: z.number().int().positive(),
  owner: login,
  state: z.enum(["pending", "exporting", "exported", "failed"]),
  lock_repositories: z.boolean().default(false),
  exclude_metadata: z.boolean().default(false),
  exclude_git_data: z.boolean().default(false),
  exclude_attachments: z.boolean().default(false),
  exclude_releases: z.boolean().default(false),
  exclude_owner_projects: z.boolean().default(false),
  org_metadata_only: z.boolean().default(false),
  repositories: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
});

/** The lists of the seed this area describes, each entry's fields. */
export const legacySeed = {
  users: user.shape,
  organizations: organization.shape,
  apps: app.shape,
  repositories: repositorySeed.shape,
  gists: gist.shape,
  migrations: migration.shape,
};

type Entry<T extends z.ZodType> = z.output<T>;
export type RepositorySeed = Entry<typeof repositorySeed>;
export type HookSeed = RepositorySeed["hooks"][number];
export type AppSeed = Entry<typeof app>;
export type OrganizationSeed = Entry<typeof organization>;
export type PropertySeed = OrganizationSeed["custom_properties"][number];
/** The lists of a checked seed this area reads. */
export interface LegacySeed {
  users: readonly Entry<typeof user>[];
  organizations: readonly OrganizationSeed[];
  apps: readonly AppSeed[];
  repositories: readonly RepositorySeed[];
  gists: readonly Entry<typeof gist>[];
  migrations: readonly Entry<typeof migration>[];
}
