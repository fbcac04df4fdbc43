/**
 * GitHub Actions and organization records of the world: Actions permissions, variables, secrets
 * (kept only as a digest of what decrypted) and an organization's own settings. Defaults are GitHub's
 * for a new repository or organization (docs/service-decisions.md, "Actions").
 */

export type AllowedActions = "all" | "local_only" | "selected";
export type Visibility = "all" | "private" | "selected";

export interface SelectedActions {
  github_owned_allowed: boolean;
  verified_allowed: boolean;
  patterns_allowed: string[];
}

/** What `…/actions/permissions`, `…/selected-actions` and `…/workflow` read and write. */
export interface ActionsPolicy {
  allowed_actions: AllowedActions;
  sha_pinning_required: boolean;
  selected: SelectedActions;
  default_workflow_permissions: "read" | "write";
  can_approve_pull_request_reviews: boolean;
}

export interface RepositoryActions extends ActionsPolicy {
  enabled: boolean;
  /** `…/actions/permissions/access`: who outside the repository may use its actions and workflows. */
  access_level: "none" | "user" | "organization";
}

export interface OrganizationActions extends ActionsPolicy {
  enabled_repositories: "all" | "none" | "selected";
  /** Repository ids, when `enabled_repositories` is `selected`. */
  selected_repositories: Set<number>;
}

export function defaultPolicy(): ActionsPolicy {
  return {
    allowed_actions: "all",
    sha_pinning_required: false,
    selected: { github_owned_allowed: true, verified_allowed: false, patterns_allowed: [] },
    default_workflow_permissions: "read",
    can_approve_pull_request_reviews: false,
  };
}

/** An organization's variable or secret is shared with all, private, or selected repositories. */
export interface Shared {
  visibility: Visibility;
  /** Repository ids, when `visibility` is `selected`. */
  selected: Set<number>;
}

export interface Variable {
  /** As GitHub keeps it: upper-cased. */
  name: string;
  value: string;
  created_at: string;
  updated_at: string;
  /** Organization variables only. */
  shared?: Shared;
}

/**
 * A secret as the sandbox keeps it: never the value, only the SHA-256 of what decrypted (hex), so
 * tests can prove the right value arrived.
 */
export interface StoredSecret {
  name: string;
  created_at: string;
  updated_at: string;
  sha256: string;
  /** Organization secrets only. */
  shared?: Shared;
}

/** The variables and secrets of one place: a repository, an environment or an organization. */
export interface ActionsStore {
  variables: Map<string, Variable>;
  /** Actions secrets. */
  secrets: Map<string, StoredSecret>;
  /** Dependabot secrets (repositories and organizations; environments have none). */
  dependabot: Map<string, StoredSecret>;
}

export function emptyStore(): ActionsStore {
  return { variables: new Map(), secrets: new Map(), dependabot: new Map() };
}

/** What `PATCH /orgs/{org}` sets besides the base permission (the world's `basePermission`). */
export interface OrganizationSettings {
  name: string | null;
  description: string | null;
  company: string | null;
  blog: string | null;
  email: string | null;
  location: string | null;
  twitter_username: string | null;
  has_organization_projects: boolean;
  has_repository_projects: boolean;
  members_can_create_repositories: boolean;
  members_can_create_public_repositories: boolean;
  members_can_create_private_repositories: boolean;
  members_can_create_internal_repositories: boolean;
  members_can_create_pages: boolean;
  members_can_create_public_pages: boolean;
  members_can_create_private_pages: boolean;
  members_can_fork_private_repositories: boolean;
  web_commit_signoff_required: boolean;
  deploy_keys_enabled_for_repositories: boolean;
  secret_scanning_push_protection_custom_link_enabled: boolean;
  secret_scanning_push_protection_custom_link: string | null;
  /** Billing, not managed by forgeplan; kept so the owner's answer is GitHub's. */
  billing_email: string | null;
  created_at: string;
  updated_at: string;
}
