import {
  type ActionsPolicy,
  type OrganizationActions,
  organizationActionsOf,
  repositoryActionsOf,
} from "./records.js";
import { githubError, noContent, ok, type RequestContext } from "../http.js";
import type { Route } from "../http.js";
import { repository } from "../world/shapes.js";
import { administeredOrganization } from "../world/access.js";
import { adminRepository, assertUnlocked } from "../world/access.js";
import { repositoryPage, selectedRepositories } from "./places.js";

/**
 * GitHub Actions permissions of repositories and organizations, each read and written at its own
 * endpoint as GitHub has them: `…/actions/permissions` (enabled, allowed actions, SHA pinning),
 * `…/selected-actions`, `…/workflow` (the GITHUB_TOKEN's default permissions), a repository's
 * `…/access` and an organization's `…/repositories`. docs/service-decisions.md has the rules.
 */

/**
 * "To use this endpoint, the … permission policy for `allowed_actions` must be configured to
 * `selected`" (the selected-actions operations' descriptions); the sandbox answers 409, as GitHub's
 * Actions settings answer a conflict with their policy.
 */
function requireSelected(policy: ActionsPolicy): void {
  if (policy.allowed_actions !== "selected") {
    throw githubError(409, "allowed_actions must be set to selected to use this endpoint");
  }
}

function selectedActions(policy: ActionsPolicy) {
  return {
    github_owned_allowed: policy.selected.github_owned_allowed,
    verified_allowed: policy.selected.verified_allowed,
    patterns_allowed: [...policy.selected.patterns_allowed],
  };
}

/** The policy a PUT of `…/actions/permissions` leaves: what it sends replaces, the rest stays. */
function putPolicy(policy: ActionsPolicy, body: Record<string, unknown>): void {
  if (body.allowed_actions !== undefined) {
    policy.allowed_actions = body.allowed_actions as ActionsPolicy["allowed_actions"];
  }
  if (body.sha_pinning_required !== undefined) {
    policy.sha_pinning_required = body.sha_pinning_required as boolean;
  }
}

function putSelected(policy: ActionsPolicy, body: Record<string, unknown>): void {
  requireSelected(policy);
  const selected = policy.selected;
  if (body.github_owned_allowed !== undefined) {
    selected.github_owned_allowed = body.github_owned_allowed as boolean;
  }
  if (body.verified_allowed !== undefined)
    selected.verified_allowed = body.verified_allowed as boolean;
  if (body.patterns_allowed !== undefined) {
    selected.patterns_allowed = [...new Set(body.patterns_allowed as string[])];
  }
}

function putWorkflow(policy: ActionsPolicy, body: Record<string, unknown>): void {
  if (body.default_workflow_permissions !== undefined) {
    policy.default_workflow_permissions =
      body.default_workflow_permissions as ActionsPolicy["default_workflow_permissions"];
  }
  if (body.can_approve_pull_request_reviews !== undefined) {
    policy.can_approve_pull_request_reviews = body.can_approve_pull_request_reviews as boolean;
  }
}

function workflow(policy: ActionsPolicy) {
  return {
    default_workflow_permissions: policy.default_workflow_permissions,
    can_approve_pull_request_reviews: policy.can_approve_pull_request_reviews,
  };
}

/** What `…/actions/permissions` shows of the allowed actions once Actions runs at all. */
function allowed(policy: ActionsPolicy, url: string) {
  return {
    allowed_actions: policy.allowed_actions,
    ...(policy.allowed_actions === "selected"
      ? { selected_actions_url: `${url}/actions/permissions/selected-actions` }
      : {}),
    sha_pinning_required: policy.sha_pinning_required,
  };
}

function writableRepository(ctx: RequestContext) {
  const { repo } = adminRepository(ctx);
  assertUnlocked(ctx, repo);
  return repo;
}

const REPO = "/repos/:owner/:repo/actions/permissions";
const REPO_OPERATION = "/repos/{owner}/{repo}/actions/permissions";
const ORG = "/orgs/:org/actions/permissions";
const ORG_OPERATION = "/orgs/{org}/actions/permissions";

const repositoryRoutes: Route[] = [
  {
    method: "GET",
    pattern: REPO,
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const url = `${ctx.base}/repos/${repo.owner.login}/${repo.name}`;
      const actions = repositoryActionsOf(repo);
      return ok({ enabled: actions.enabled, ...(actions.enabled ? allowed(actions, url) : {}) });
    },
  },
  {
    method: "PUT",
    pattern: REPO,
    operation: `PUT ${REPO_OPERATION}`,
    handler: (ctx) => {
      const repo = writableRepository(ctx);
      const body = ctx.json();
      repositoryActionsOf(repo).enabled = body.enabled as boolean;
      putPolicy(repositoryActionsOf(repo), body);
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: `${REPO}/selected-actions`,
    handler: (ctx) => ok(selectedActions(repositoryActionsOf(adminRepository(ctx).repo))),
  },
  {
    method: "PUT",
    pattern: `${REPO}/selected-actions`,
    operation: `PUT ${REPO_OPERATION}/selected-actions`,
    handler: (ctx) => {
      putSelected(repositoryActionsOf(writableRepository(ctx)), ctx.json());
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: `${REPO}/workflow`,
    handler: (ctx) => ok(workflow(repositoryActionsOf(adminRepository(ctx).repo))),
  },
  {
    method: "PUT",
    pattern: `${REPO}/workflow`,
    operation: `PUT ${REPO_OPERATION}/workflow`,
    handler: (ctx) => {
      putWorkflow(repositoryActionsOf(writableRepository(ctx)), ctx.json());
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: `${REPO}/access`,
    handler: (ctx) =>
      ok({ access_level: repositoryActionsOf(adminRepository(ctx).repo).access_level }),
  },
  {
    method: "PUT",
    pattern: `${REPO}/access`,
    operation: `PUT ${REPO_OPERATION}/access`,
    handler: (ctx) => {
      const repo = writableRepository(ctx);
      const level = ctx.json().access_level as "none" | "user" | "organization";
      // "`user` level access allows sharing across user owned private repositories only.
      // `organization` level access allows sharing across the organization." (the schema's words)
      const owner = repo.org === null ? "user" : "organization";
      if (level !== "none" && level !== owner) {
        throw ctx.invalid(
          [
            `access_level ${level} is not available to a repository owned by a${owner === "user" ? " user" : "n organization"}`,
          ],
          "Repository",
        );
      }
      repositoryActionsOf(repo).access_level = level;
      return noContent;
    },
  },
];

const organizationRoutes: Route[] = [
  {
    method: "GET",
    pattern: ORG,
    handler: (ctx) => {
      const org = administeredOrganization(ctx);
      const actions = organizationActionsOf(org);
      const url = `${ctx.base}/orgs/${org.account.login}`;
      return ok({
        enabled_repositories: actions.enabled_repositories,
        ...(actions.enabled_repositories === "selected"
          ? { selected_repositories_url: `${url}/actions/permissions/repositories` }
          : {}),
        ...(actions.enabled_repositories === "none" ? {} : allowed(actions, url)),
      });
    },
  },
  {
    method: "PUT",
    pattern: ORG,
    operation: `PUT ${ORG_OPERATION}`,
    handler: (ctx) => {
      const org = administeredOrganization(ctx);
      const body = ctx.json();
      const actions = organizationActionsOf(org);
      actions.enabled_repositories =
        body.enabled_repositories as OrganizationActions["enabled_repositories"];
      putPolicy(actions, body);
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: `${ORG}/repositories`,
    handler: (ctx) => {
      const org = administeredOrganization(ctx);
      return repositoryPage(ctx, organizationActionsOf(org).selected_repositories, repository);
    },
  },
  {
    method: "PUT",
    pattern: `${ORG}/repositories`,
    operation: `PUT ${ORG_OPERATION}/repositories`,
    handler: (ctx) => {
      const org = administeredOrganization(ctx);
      // "the organization permission policy for `enabled_repositories` must be configured to
      // `selected`" (the operation's description).
      if (organizationActionsOf(org).enabled_repositories !== "selected") {
        throw githubError(409, "enabled_repositories must be set to selected to use this endpoint");
      }
      const ids = ctx.json().selected_repository_ids as unknown[];
      organizationActionsOf(org).selected_repositories = selectedRepositories(
        ctx,
        org,
        ids,
        "Repository",
      );
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: `${ORG}/selected-actions`,
    handler: (ctx) => ok(selectedActions(organizationActionsOf(administeredOrganization(ctx)))),
  },
  {
    method: "PUT",
    pattern: `${ORG}/selected-actions`,
    operation: `PUT ${ORG_OPERATION}/selected-actions`,
    handler: (ctx) => {
      putSelected(organizationActionsOf(administeredOrganization(ctx)), ctx.json());
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: `${ORG}/workflow`,
    handler: (ctx) => ok(workflow(organizationActionsOf(administeredOrganization(ctx)))),
  },
  {
    method: "PUT",
    pattern: `${ORG}/workflow`,
    operation: `PUT ${ORG_OPERATION}/workflow`,
    handler: (ctx) => {
      putWorkflow(organizationActionsOf(administeredOrganization(ctx)), ctx.json());
      return noContent;
    },
  },
];

export const actionsPermissionRoutes: Route[] = [...repositoryRoutes, ...organizationRoutes];
