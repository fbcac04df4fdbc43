import { attached } from "../../core/attached.js";
import type { GithubWorld, Organization, Repository } from "../world/records.js";
import { type SealingKey, sealingKeyFor } from "./sealed-box.js";

/**
 * GitHub Actions records: Actions permissions, variables and secrets (kept only as a digest of
 * what decrypted). Defaults are GitHub's for a new repository or organization
 * (docs/service-decisions.md, "Actions").
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

/** A repository's Actions permissions: GitHub's defaults until set. */
export const repositoryActionsOf = attached((_repo: Repository): RepositoryActions => ({
  enabled: true,
  ...defaultPolicy(),
  access_level: "none",
}));

/** An organization's Actions permissions: GitHub's defaults until set. */
export const organizationActionsOf = attached((_org: Organization): OrganizationActions => ({
  enabled_repositories: "all",
  selected_repositories: new Set(),
  ...defaultPolicy(),
}));

/**
 * The variables and secrets of one place: a repository, an organization or an environment (keyed
 * by its record, which the environments area keeps).
 */
export const storeOf = attached((_place: object): ActionsStore => emptyStore());

/**
 * The key pair of one place's secrets (`repository/1001/actions`, `organization/100/dependabot`,
 * `environment/1001/production`): derived from the place, so a world's keys are the same each run.
 */
const sealingKeys = attached((_world: GithubWorld) => new Map<string, SealingKey>());

export function sealingKey(world: GithubWorld, place: string): SealingKey {
  const keys = sealingKeys(world);
  let found = keys.get(place);
  if (found === undefined) {
    found = sealingKeyFor(place);
    keys.set(place, found);
  }
  return found;
}
