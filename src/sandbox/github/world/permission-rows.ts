import { idParam } from "../http.js";
import type { PermissionRow, PermissionSet } from "./installation-access.js";
import { type AppPermissionLevel, covers } from "./records.js";

/**
 * What an installation token may call, by `METHOD pattern`: the permission sets GitHub accepts,
 * any one of which is enough. From GitHub's "Permissions required for GitHub Apps"
 * (docs.github.com/en/rest/authentication/permissions-required-for-github-apps, in the copy
 * octokit/app-permissions keeps as cache/api.github.com.html, last changed 2023-11-01), where an
 * operation listed under several permissions, each naming the others under "Additional
 * permissions", is one of the page's "endpoints [that] work with any one permission from a set" —
 * except issue comments and edits (BY_TARGET) and custom properties (below). Not on that page: `PATCH …/properties/values` of a repository, whose permission is
 * `repository_custom_properties` ("to view and edit custom properties for a repository", the
 * app-permissions schema in @octokit/openapi); `GET /apps/{app_slug}`, which needs none; `GET
 * /installation/repositories`, an installation's list of its own repositories, which needs none
 * either. The organization migrations are `enabledForGitHubApps: false` in @octokit/openapi, and a
 * user's gists and migrations, `GET /user` and `GET /user/repos` belong to a user: none is here,
 * so an installation is refused them. (The page lists `GET /user/repos` under Metadata for user
 * access tokens only: its token types name no IAT, and the data GitHub's documentation builds the
 * page from says `"server-to-server": false`, github/docs
 * src/github-apps/data/fpt-2022-11-28/server-to-server-permissions.json.)
 */
export const PERMISSION_ROWS: Readonly<Record<string, PermissionRow>> = {
  "GET /repos/:owner/:repo": [{ metadata: "read" }],
  "GET /orgs/:org/repos": [{ metadata: "read" }],
  "GET /users/:user/repos": [{ metadata: "read" }],
  "PATCH /repos/:owner/:repo": [{ administration: "write" }],
  "GET /repos/:owner/:repo/topics": [{ metadata: "read" }],
  "PUT /repos/:owner/:repo/topics": [{ administration: "write" }],
  "GET /repos/:owner/:repo/vulnerability-alerts": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/vulnerability-alerts": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/vulnerability-alerts": [{ administration: "write" }],
  "GET /repos/:owner/:repo/automated-security-fixes": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/automated-security-fixes": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/automated-security-fixes": [{ administration: "write" }],
  "GET /repos/:owner/:repo/private-vulnerability-reporting": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/private-vulnerability-reporting": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/private-vulnerability-reporting": [{ administration: "write" }],
  // The default branch's rename takes administration write ("To rename the default branch … GitHub
  // Apps must have the administration:write repository permission", the operation's page); any
  // other branch's, contents write.
  "POST /repos/:owner/:repo/branches/*branch/rename": [{ administration: "write" }],
  "POST /orgs/:org/repos": [{ administration: "write" }],
  "GET /repos/:owner/:repo/branches": [{ contents: "read" }],
  "GET /repos/:owner/:repo/branches/*branch": [{ contents: "read" }],
  "GET /repos/:owner/:repo/branches/*branch/protection": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/branches/*branch/protection": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/branches/*branch/protection": [{ administration: "write" }],
  "GET /repos/:owner/:repo/hooks": [{ repository_hooks: "read" }],
  "POST /repos/:owner/:repo/hooks": [{ repository_hooks: "write" }],
  "GET /repos/:owner/:repo/hooks/:id": [{ repository_hooks: "read" }],
  "PATCH /repos/:owner/:repo/hooks/:id": [{ repository_hooks: "write" }],
  "DELETE /repos/:owner/:repo/hooks/:id": [{ repository_hooks: "write" }],
  "GET /repos/:owner/:repo/hooks/:id/config": [{ repository_hooks: "read" }],
  "PATCH /repos/:owner/:repo/hooks/:id/config": [{ repository_hooks: "write" }],
  "GET /repos/:owner/:repo/invitations": [{ administration: "read" }],
  "DELETE /repos/:owner/:repo/invitations/:id": [{ administration: "write" }],
  "GET /repos/:owner/:repo/issues": [{ issues: "read" }],
  "POST /repos/:owner/:repo/issues": [{ issues: "write" }],
  "GET /repos/:owner/:repo/issues/:number": [{ issues: "read" }],
  "POST /repos/:owner/:repo/pulls": [{ pull_requests: "write" }],
  "GET /repos/:owner/:repo/pulls/:number": [{ pull_requests: "read" }, { contents: "read" }],
  "PUT /repos/:owner/:repo/pulls/:number/merge": [{ contents: "write" }],
  "GET /repos/:owner/:repo/commits/:sha/pulls": [{ pull_requests: "read" }],
  "GET /repos/:owner/:repo/properties/values": [{ metadata: "read" }],
  "PATCH /repos/:owner/:repo/properties/values": [{ repository_custom_properties: "write" }],
  "GET /repos/:owner/:repo/rulesets": [{ metadata: "read" }],
  "POST /repos/:owner/:repo/rulesets": [{ administration: "write" }],
  "GET /repos/:owner/:repo/rulesets/:id": [{ metadata: "read" }],
  "PUT /repos/:owner/:repo/rulesets/:id": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/rulesets/:id": [{ administration: "write" }],
  "GET /repos/:owner/:repo/rules/branches/*branch": [{ metadata: "read" }],
  // GitHub lists even the reads of organization rulesets under Administration write.
  "GET /orgs/:org/rulesets": [{ organization_administration: "write" }],
  "POST /orgs/:org/rulesets": [{ organization_administration: "write" }],
  "GET /orgs/:org/rulesets/:id": [{ organization_administration: "write" }],
  "PUT /orgs/:org/rulesets/:id": [{ organization_administration: "write" }],
  "DELETE /orgs/:org/rulesets/:id": [{ organization_administration: "write" }],
  "GET /repos/:owner/:repo/collaborators": [{ metadata: "read" }],
  "PUT /repos/:owner/:repo/collaborators/:username": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/collaborators/:username": [{ administration: "write" }],
  "PATCH /repos/:owner/:repo/invitations/:id": [{ administration: "write" }],
  "GET /repos/:owner/:repo/teams": [{ administration: "read" }],
  "GET /orgs/:org/members": [{ metadata: "read" }],
  "GET /orgs/:org/teams": [{ members: "read" }],
  "POST /orgs/:org/teams": [{ members: "write" }],
  "GET /orgs/:org/teams/:team_slug": [{ members: "read" }],
  // Not in that copy of the page: a team's own operations and memberships are given Members, which
  // its listing and creation take; a team's repositories repository Administration, as the
  // repository's collaborators; custom repository roles and organization roles the organization
  // permissions named after them (choices, docs/service-decisions.md "Access and teams").
  "PATCH /orgs/:org/teams/:team_slug": [{ members: "write" }],
  "DELETE /orgs/:org/teams/:team_slug": [{ members: "write" }],
  "GET /orgs/:org/teams/:team_slug/members": [{ members: "read" }],
  "GET /orgs/:org/teams/:team_slug/memberships/:username": [{ members: "read" }],
  "PUT /orgs/:org/teams/:team_slug/memberships/:username": [{ members: "write" }],
  "DELETE /orgs/:org/teams/:team_slug/memberships/:username": [{ members: "write" }],
  "PUT /orgs/:org/teams/:team_slug/repos/:owner/:repo": [{ administration: "write" }],
  "DELETE /orgs/:org/teams/:team_slug/repos/:owner/:repo": [{ administration: "write" }],
  "GET /orgs/:org/custom-repository-roles": [{ organization_custom_roles: "read" }],
  "GET /orgs/:org/organization-roles": [{ organization_administration: "read" }],
  "GET /orgs/:org/organization-roles/:role_id/teams": [{ organization_administration: "read" }],
  "GET /orgs/:org/installations": [{ organization_administration: "read" }],
  // The page also lists these under Members and organization Administration; each endpoint's own
  // page names one set ("The token must have the following permission set:
  // organization_custom_properties:read", docs.github.com/en/rest/orgs/custom-properties).
  "GET /orgs/:org/properties/schema": [{ organization_custom_properties: "read" }],
  "GET /orgs/:org/properties/schema/:name": [{ organization_custom_properties: "read" }],
  "PUT /orgs/:org/properties/schema/:name": [{ organization_custom_properties: "admin" }],
  "DELETE /orgs/:org/properties/schema/:name": [{ organization_custom_properties: "admin" }],
  "GET /orgs/:org/properties/values": [{ organization_custom_properties: "read" }],
  "PATCH /orgs/:org/properties/values": [{ organization_custom_properties: "write" }],
  // Organization profile, hooks, Actions: the page's "Administration", "Webhooks", "Secrets",
  // "Variables", "Dependabot secrets" and "Environments" permissions of repositories and organizations.
  "GET /orgs/:org": [{}],
  "PATCH /orgs/:org": [{ organization_administration: "write" }],
  "GET /orgs/:org/hooks": [{ organization_hooks: "read" }],
  "POST /orgs/:org/hooks": [{ organization_hooks: "write" }],
  "GET /orgs/:org/hooks/:id": [{ organization_hooks: "read" }],
  "PATCH /orgs/:org/hooks/:id": [{ organization_hooks: "write" }],
  "DELETE /orgs/:org/hooks/:id": [{ organization_hooks: "write" }],
  "GET /orgs/:org/hooks/:id/config": [{ organization_hooks: "read" }],
  "PATCH /orgs/:org/hooks/:id/config": [{ organization_hooks: "write" }],
  "GET /repos/:owner/:repo/actions/permissions": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/actions/permissions": [{ administration: "write" }],
  "GET /repos/:owner/:repo/actions/permissions/selected-actions": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/actions/permissions/selected-actions": [{ administration: "write" }],
  "GET /repos/:owner/:repo/actions/permissions/workflow": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/actions/permissions/workflow": [{ administration: "write" }],
  "GET /repos/:owner/:repo/actions/permissions/access": [{ administration: "read" }],
  "PUT /repos/:owner/:repo/actions/permissions/access": [{ administration: "write" }],
  "GET /orgs/:org/actions/permissions": [{ organization_administration: "read" }],
  "PUT /orgs/:org/actions/permissions": [{ organization_administration: "write" }],
  "GET /orgs/:org/actions/permissions/selected-actions": [{ organization_administration: "read" }],
  "PUT /orgs/:org/actions/permissions/selected-actions": [{ organization_administration: "write" }],
  "GET /orgs/:org/actions/permissions/workflow": [{ organization_administration: "read" }],
  "PUT /orgs/:org/actions/permissions/workflow": [{ organization_administration: "write" }],
  "GET /orgs/:org/actions/permissions/repositories": [{ organization_administration: "read" }],
  "PUT /orgs/:org/actions/permissions/repositories": [{ organization_administration: "write" }],
  "GET /repos/:owner/:repo/actions/variables": [{ actions_variables: "read" }],
  "POST /repos/:owner/:repo/actions/variables": [{ actions_variables: "write" }],
  "GET /repos/:owner/:repo/actions/variables/:name": [{ actions_variables: "read" }],
  "PATCH /repos/:owner/:repo/actions/variables/:name": [{ actions_variables: "write" }],
  "DELETE /repos/:owner/:repo/actions/variables/:name": [{ actions_variables: "write" }],
  "GET /repos/:owner/:repo/environments/:environment/variables": [{ environments: "read" }],
  "POST /repos/:owner/:repo/environments/:environment/variables": [{ environments: "write" }],
  "GET /repos/:owner/:repo/environments/:environment/variables/:name": [{ environments: "read" }],
  "PATCH /repos/:owner/:repo/environments/:environment/variables/:name": [
    { environments: "write" },
  ],
  "DELETE /repos/:owner/:repo/environments/:environment/variables/:name": [
    { environments: "write" },
  ],
  "GET /orgs/:org/actions/variables": [{ organization_actions_variables: "read" }],
  "POST /orgs/:org/actions/variables": [{ organization_actions_variables: "write" }],
  "GET /orgs/:org/actions/variables/:name": [{ organization_actions_variables: "read" }],
  "PATCH /orgs/:org/actions/variables/:name": [{ organization_actions_variables: "write" }],
  "DELETE /orgs/:org/actions/variables/:name": [{ organization_actions_variables: "write" }],
  "GET /orgs/:org/actions/variables/:name/repositories": [
    { organization_actions_variables: "read" },
  ],
  "PUT /orgs/:org/actions/variables/:name/repositories": [
    { organization_actions_variables: "write" },
  ],
  "GET /repos/:owner/:repo/actions/secrets": [{ secrets: "read" }],
  "GET /repos/:owner/:repo/actions/secrets/public-key": [{ secrets: "read" }],
  "GET /repos/:owner/:repo/actions/secrets/:name": [{ secrets: "read" }],
  "PUT /repos/:owner/:repo/actions/secrets/:name": [{ secrets: "write" }],
  "DELETE /repos/:owner/:repo/actions/secrets/:name": [{ secrets: "write" }],
  "GET /repos/:owner/:repo/dependabot/secrets": [{ dependabot_secrets: "read" }],
  "GET /repos/:owner/:repo/dependabot/secrets/public-key": [{ dependabot_secrets: "read" }],
  "GET /repos/:owner/:repo/dependabot/secrets/:name": [{ dependabot_secrets: "read" }],
  "PUT /repos/:owner/:repo/dependabot/secrets/:name": [{ dependabot_secrets: "write" }],
  "DELETE /repos/:owner/:repo/dependabot/secrets/:name": [{ dependabot_secrets: "write" }],
  "GET /repos/:owner/:repo/environments/:environment/secrets": [{ environments: "read" }],
  "GET /repos/:owner/:repo/environments/:environment/secrets/public-key": [
    { environments: "read" },
  ],
  "GET /repos/:owner/:repo/environments/:environment/secrets/:name": [{ environments: "read" }],
  "PUT /repos/:owner/:repo/environments/:environment/secrets/:name": [{ environments: "write" }],
  "DELETE /repos/:owner/:repo/environments/:environment/secrets/:name": [{ environments: "write" }],
  "GET /orgs/:org/actions/secrets": [{ organization_secrets: "read" }],
  "GET /orgs/:org/actions/secrets/public-key": [{ organization_secrets: "read" }],
  "GET /orgs/:org/actions/secrets/:name": [{ organization_secrets: "read" }],
  "PUT /orgs/:org/actions/secrets/:name": [{ organization_secrets: "write" }],
  "DELETE /orgs/:org/actions/secrets/:name": [{ organization_secrets: "write" }],
  "GET /orgs/:org/actions/secrets/:name/repositories": [{ organization_secrets: "read" }],
  "PUT /orgs/:org/actions/secrets/:name/repositories": [{ organization_secrets: "write" }],
  "GET /orgs/:org/dependabot/secrets": [{ organization_dependabot_secrets: "read" }],
  "GET /orgs/:org/dependabot/secrets/public-key": [{ organization_dependabot_secrets: "read" }],
  "GET /orgs/:org/dependabot/secrets/:name": [{ organization_dependabot_secrets: "read" }],
  "PUT /orgs/:org/dependabot/secrets/:name": [{ organization_dependabot_secrets: "write" }],
  "DELETE /orgs/:org/dependabot/secrets/:name": [{ organization_dependabot_secrets: "write" }],
  "GET /orgs/:org/dependabot/secrets/:name/repositories": [
    { organization_dependabot_secrets: "read" },
  ],
  "PUT /orgs/:org/dependabot/secrets/:name/repositories": [
    { organization_dependabot_secrets: "write" },
  ],
  "GET /users/:user": [{ metadata: "read" }],
  // Labels are listed under both Issues and Pull requests, each naming the other as additional.
  "GET /repos/:owner/:repo/labels": [{ issues: "read" }, { pull_requests: "read" }],
  "POST /repos/:owner/:repo/labels": [{ issues: "write" }, { pull_requests: "write" }],
  "GET /repos/:owner/:repo/labels/:name": [{ issues: "read" }, { pull_requests: "read" }],
  "PATCH /repos/:owner/:repo/labels/:name": [{ issues: "write" }, { pull_requests: "write" }],
  "DELETE /repos/:owner/:repo/labels/:name": [{ issues: "write" }, { pull_requests: "write" }],
  "GET /repos/:owner/:repo/autolinks": [{ administration: "read" }],
  "POST /repos/:owner/:repo/autolinks": [{ administration: "write" }],
  "GET /repos/:owner/:repo/autolinks/:id": [{ administration: "read" }],
  "DELETE /repos/:owner/:repo/autolinks/:id": [{ administration: "write" }],
  // Environments are read under Actions and written under Administration.
  "GET /repos/:owner/:repo/environments": [{ actions: "read" }],
  "GET /repos/:owner/:repo/environments/:name": [{ actions: "read" }],
  "PUT /repos/:owner/:repo/environments/:name": [{ administration: "write" }],
  "DELETE /repos/:owner/:repo/environments/:name": [{ administration: "write" }],
  "GET /repos/:owner/:repo/environments/:name/deployment-branch-policies": [{ actions: "read" }],
  "POST /repos/:owner/:repo/environments/:name/deployment-branch-policies": [
    { administration: "write" },
  ],
  "GET /repos/:owner/:repo/environments/:name/deployment-branch-policies/:id": [
    { actions: "read" },
  ],
  "PUT /repos/:owner/:repo/environments/:name/deployment-branch-policies/:id": [
    { administration: "write" },
  ],
  "DELETE /repos/:owner/:repo/environments/:name/deployment-branch-policies/:id": [
    { administration: "write" },
  ],
  "GET /apps/:app_slug": [{}],
  // The GraphQL endpoint takes no permission itself; each field its query reads checks its own.
  "POST /graphql": [{}],
  "GET /installation/repositories": [{}],
};

/**
 * The page lists these under both Issues and Pull requests, but GitHub takes the permission of what
 * the number is: Issues for an issue, Pull requests for a pull request ("Commenting on a PR via the
 * issues.createComment API keys its permission off the target resource, so pull-requests: write
 * covers it", ynab/ynab-sdk-ruby#95; a workflow token with Issues read is refused a pull request's
 * comments, github community discussion #210157).
 */
function byTarget(level: AppPermissionLevel): PermissionRow {
  return ({ installation, params, world }): readonly PermissionSet[] => {
    const { owner, repo: name, number, id } = params;
    const repo = world.repository(owner ?? "", name ?? "");
    if (repo === undefined || (repo.private && !covers(installation, repo))) {
      return [{ issues: level }];
    }
    const comment = world.issueComments.get(idParam(id) ?? 0);
    const issue =
      number !== undefined
        ? (world.issues.get(repo.id) ?? [])[(idParam(number) ?? 0) - 1]
        : comment?.issue.repo === repo
          ? comment.issue
          : undefined;
    return [issue?.pull !== undefined ? { pull_requests: level } : { issues: level }];
  };
}

export const BY_TARGET_ROWS: Readonly<Record<string, PermissionRow>> = {
  "PATCH /repos/:owner/:repo/issues/:number": byTarget("write"),
  "GET /repos/:owner/:repo/issues/:number/comments": byTarget("read"),
  "POST /repos/:owner/:repo/issues/:number/comments": byTarget("write"),
  "GET /repos/:owner/:repo/issues/comments/:id": byTarget("read"),
  "PATCH /repos/:owner/:repo/issues/comments/:id": byTarget("write"),
  "DELETE /repos/:owner/:repo/issues/comments/:id": byTarget("write"),
};
