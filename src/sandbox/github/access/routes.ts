import { collaboratorsOf, reportedRole } from "./records.js";
import {
  forbidden,
  isoTime,
  noContent,
  notFound,
  ok,
  type RequestContext,
  requireCaller,
} from "../http.js";
import { pageReply } from "../../core/pagination.js";
import type { Route } from "../http.js";
import {
  type Account,
  higherRole,
  levelAtLeast,
  type Organization,
  type Repository,
  type Role,
  roleLevel,
  roleName,
  ROLE_NAMES,
} from "../world/records.js";
import { type Invitation, invitationsOf, invitationIds } from "../invitations/records.js";
import { type Team, teamsOf, securityManagersOf, teamGrantsOf } from "../team/records.js";
import { administeredOrganization, memberOrganization } from "../world/access.js";
import { adminRepository, assertUnlocked, visibleRepository } from "../world/access.js";
import { invitation } from "../invitations/shapes.js";
import { minimalRepository, simpleUser } from "../world/shapes.js";
import { team } from "../team/shapes.js";
import { resolveRole } from "../world/records.js";
import { collaborator, customRole, permissionFlags, teamRoleAssignment } from "./shapes.js";

/**
 * Who has access to a repository: its collaborators and their invitations, the teams granted access,
 * the organization's custom repository roles and its organization roles (which say which teams are
 * security managers), and its members.
 */

/** The users with a direct grant, and everyone else with access, as `affiliation` selects them. */
function listedCollaborators(
  ctx: RequestContext,
  repo: Repository,
  affiliation: string,
): Array<{ user: Account; role: Role }> {
  const { world } = ctx;
  const org = repo.org;
  const member = (user: Account) =>
    org !== null && (org.owners.has(user.id) || org.members.has(user.id));
  const users: Account[] = [];
  if (affiliation === "direct" || affiliation === "outside") {
    for (const id of collaboratorsOf(repo).keys()) {
      const user = world.accountsById.get(id);
      if (user === undefined) continue;
      if (affiliation === "outside" && member(user)) continue;
      users.push(user);
    }
  } else {
    for (const user of world.accountsById.values()) {
      if (user.type !== "User" || user.installation !== undefined) continue;
      if (reportedRole(repo, user) !== undefined) users.push(user);
    }
  }
  return users
    .sort((a, b) => a.id - b.id)
    .flatMap((user) => {
      const role = reportedRole(repo, user);
      return role === undefined ? [] : [{ user, role }];
    });
}

/** The role a PUT names, or GitHub's 422. */
function requestedRole(ctx: RequestContext, org: Organization | null, resource: string): Role {
  const written = ctx.json().permission;
  if (written === undefined) return "push";
  const role = typeof written === "string" ? resolveRole(org, written) : undefined;
  if (role === undefined) {
    throw ctx.invalid(
      [
        `${JSON.stringify(written)} is not a permission: pull, triage, push, maintain, admin${org !== null && org.customRoles.size > 0 ? " or a custom repository role of the organization" : ""}`,
      ],
      resource,
    );
  }
  return role;
}

/** The level of an invitation: the custom role's base role, as invitations name only those five. */
function invitationRole(role: Role): Invitation["permissions"] {
  const level = roleLevel(role);
  return level === "none" ? "read" : (ROLE_NAMES[level] as Invitation["permissions"]);
}

function pendingInvitation(repo: Repository, user: Account): Invitation | undefined {
  return [...invitationsOf(repo).values()].find(
    (item) => item.invitee.id === user.id && !item.expired,
  );
}

/** A team of the organization in the path, or 404; a secret team only for those who may see it. */
function visibleTeam(ctx: RequestContext, org: Organization): Team {
  const found = teamsOf(org).get((ctx.params.team_slug ?? "").toLowerCase());
  const caller = requireCaller(ctx);
  if (found === undefined) throw notFound();
  if (found.privacy === "secret" && !ctx.world.administers(org, caller)) {
    if (!found.members.has(caller.id)) throw notFound();
  }
  return found;
}

/** The teams of a repository: granted access, or security managers that read it anyway. */
interface RepositoryTeam {
  team: Team;
  role: Role;
  direct: boolean;
}

function repositoryTeams(repo: Repository): RepositoryTeam[] {
  const org = repo.org;
  if (org === null) return [];
  return [...teamsOf(org).values()]
    .sort((a, b) => a.id - b.id)
    .flatMap((item): RepositoryTeam[] => {
      const own = teamGrantsOf(repo).get(item.id);
      if (own !== undefined) return [{ team: item, role: own, direct: true }];
      if (securityManagersOf(org).has(item.id)) {
        return [{ team: item, role: "pull", direct: false }];
      }
      return [];
    });
}

/** The organization roles every organization has (GitHub's predefined roles), by id. */
export const PREDEFINED_ROLES = [
  { id: 8132, name: "all_repo_read", base_role: "read", description: "Read all repositories" },
  {
    id: 8133,
    name: "all_repo_triage",
    base_role: "triage",
    description: "Triage all repositories",
  },
  { id: 8134, name: "all_repo_write", base_role: "write", description: "Write all repositories" },
  {
    id: 8135,
    name: "all_repo_maintain",
    base_role: "maintain",
    description: "Maintain all repositories",
  },
  { id: 8136, name: "all_repo_admin", base_role: "admin", description: "Admin all repositories" },
  {
    id: 138,
    name: "security_manager",
    base_role: "read",
    description: "Manage security policies, alerts and settings for all repositories",
  },
] as const;

const SECURITY_MANAGER = 138;

export const accessRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/collaborators",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      // "The authenticated user must have write, maintain, or admin privileges on the repository."
      if (!ctx.world.can(repo, requireCaller(ctx), "push")) {
        throw forbidden("Must have push access to view repository collaborators.");
      }
      const affiliation = ctx.query.get("affiliation") ?? "all";
      const wanted = ctx.query.get("permission");
      const all = listedCollaborators(ctx, repo, affiliation).filter(
        ({ role }) => wanted === null || roleLevel(role) === wanted,
      );
      return pageReply(ctx, all, ({ user, role }) => collaborator(ctx.base, user, role));
    },
  },
  {
    method: "PUT",
    pattern: "/repos/:owner/:repo/collaborators/:username",
    operation: "PUT /repos/{owner}/{repo}/collaborators/{username}",
    handler: (ctx) => {
      const { repo, caller } = adminRepository(ctx);
      const user = ctx.world.account(ctx.params.username ?? "");
      if (user === undefined || user.type !== "User") throw notFound();
      const role = requestedRole(ctx, repo.org, "Repository");
      assertUnlocked(ctx, repo);
      const org = repo.org;
      const member = org !== null && (org.owners.has(user.id) || org.members.has(user.id));
      if (member && org.basePermission !== "none" && !levelAtLeast(role, org.basePermission)) {
        // GitHub's "Add a repository collaborator": "the role being given must be equal to or
        // higher than the org base permission. Otherwise, the request will fail with: Cannot
        // assign {member} permission of {role name}".
        throw ctx.invalid(
          [
            `Cannot assign ${user.login} permission of ${typeof role === "string" ? role : role.name}`,
          ],
          "Repository",
        );
      }
      // An organization member, or someone who already collaborates, gets the role at once (204);
      // anyone else is invited (201), an expired invitation replaced by a new one.
      if (member || collaboratorsOf(repo).has(user.id)) {
        collaboratorsOf(repo).set(user.id, role);
        return noContent;
      }
      const now = isoTime(ctx.now());
      const open = pendingInvitation(repo, user);
      if (open !== undefined) {
        open.permissions = invitationRole(role);
        return ok(invitation(ctx.base, ctx.world, repo, open, caller), 201);
      }
      for (const [id, item] of invitationsOf(repo)) {
        if (item.invitee.id === user.id) invitationsOf(repo).delete(id);
      }
      const created: Invitation = {
        id: invitationIds(ctx.world).next++,
        invitee: user,
        inviter: caller,
        permissions: invitationRole(role),
        created_at: now,
        expired: false,
      };
      invitationsOf(repo).set(created.id, created);
      return ok(invitation(ctx.base, ctx.world, repo, created, caller), 201);
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/collaborators/:username",
    operation: "DELETE /repos/{owner}/{repo}/collaborators/{username}",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const caller = requireCaller(ctx);
      const user = ctx.world.account(ctx.params.username ?? "");
      if (user === undefined) throw notFound();
      // "the authenticated user must either be an administrator of the repository or target
      // themselves for removal."
      if (user.id !== caller.id && !ctx.world.can(repo, caller, "admin")) {
        throw forbidden("Must have admin rights to Repository.");
      }
      assertUnlocked(ctx, repo);
      collaboratorsOf(repo).delete(user.id);
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/teams",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const caller = requireCaller(ctx);
      const org = repo.org;
      const visible = repositoryTeams(repo).filter(
        ({ team: item }) =>
          item.privacy === "closed" ||
          (org !== null && ctx.world.administers(org, caller)) ||
          item.members.has(caller.id),
      );
      return pageReply(ctx, visible, ({ team: item, role, direct }) =>
        team(ctx.base, item, { role, source: direct ? "direct" : "organization" }),
      );
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/teams/:team_slug/repos",
    handler: (ctx) => {
      // "Lists a team's repositories visible to the authenticated user": those granted to the team
      // and, for a child team, to its ancestors ("Child teams inherit the access permissions of the
      // parent team"; the listing shows the parent's repositories, octokit/octokit.net#1882), each
      // a Minimal Repository with the highest of those roles in `role_name` and `permissions`. A
      // security manager's read of every repository is not a grant, and is not listed.
      const org = memberOrganization(ctx);
      const found = visibleTeam(ctx, org);
      const caller = requireCaller(ctx);
      const granted = (repo: Repository): Role | undefined => {
        let best: Role | undefined;
        for (let at: Team | null = found; at !== null; at = at.parent) {
          const own = teamGrantsOf(repo).get(at.id);
          if (own !== undefined) best = best === undefined ? own : higherRole(best, own);
        }
        return best;
      };
      const repos = [...ctx.world.repositories.values()]
        .filter((repo) => granted(repo) !== undefined && ctx.world.can(repo, caller, "pull"))
        .sort((a, b) => a.id - b.id);
      return pageReply(ctx, repos, (repo) => {
        const role = granted(repo)!;
        return {
          ...minimalRepository(ctx.base, ctx.world, repo, caller),
          permissions: permissionFlags(role),
          role_name: roleName(role),
        };
      });
    },
  },
  {
    method: "PUT",
    pattern: "/orgs/:org/teams/:team_slug/repos/:owner/:repo",
    operation: "PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const org = memberOrganization(ctx);
      const found = visibleTeam(ctx, org);
      if (repo.org !== org) {
        throw ctx.invalid(
          [`${repo.owner.login}/${repo.name} is not owned by ${org.account.login}`],
          "Team",
        );
      }
      const role = requestedRole(ctx, org, "Team");
      assertUnlocked(ctx, repo);
      teamGrantsOf(repo).set(found.id, role);
      return noContent;
    },
  },
  {
    method: "DELETE",
    pattern: "/orgs/:org/teams/:team_slug/repos/:owner/:repo",
    operation: "DELETE /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const org = memberOrganization(ctx);
      const found = visibleTeam(ctx, org);
      if (securityManagersOf(org).has(found.id)) {
        // GitHub's answer (integrations/terraform-provider-github#2027 and #997,
        // github-community-projects/safe-settings#315).
        throw forbidden("You cannot remove repositories from a security manager team.");
      }
      assertUnlocked(ctx, repo);
      teamGrantsOf(repo).delete(found.id);
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/custom-repository-roles",
    handler: (ctx) => {
      const org = ctx.world.organizations.get((ctx.params.org ?? "").toLowerCase());
      const caller = requireCaller(ctx);
      if (org === undefined) throw notFound();
      // "The authenticated user must be an administrator of the organization or of a repository
      // of the organization to use this endpoint."
      const repos = ctx.world.repositoriesByOwner.get(org.account.login.toLowerCase()) ?? [];
      if (
        !ctx.world.administers(org, caller) &&
        !repos.some((repo) => ctx.world.can(repo, caller, "admin"))
      ) {
        throw notFound();
      }
      const roles = [...org.customRoles.values()].sort((a, b) => a.id - b.id);
      return ok({
        total_count: roles.length,
        custom_roles: roles.map((role) => customRole(ctx.base, org, role)),
      });
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/organization-roles",
    handler: (ctx) => {
      administeredOrganization(ctx);
      const stamp = "2026-01-02T09:00:00Z";
      return ok({
        total_count: PREDEFINED_ROLES.length,
        roles: PREDEFINED_ROLES.map((role) => ({
          ...role,
          source: "Predefined",
          permissions: [],
          organization: null,
          created_at: stamp,
          updated_at: stamp,
        })),
      });
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/organization-roles/:role_id/teams",
    handler: (ctx) => {
      const org = administeredOrganization(ctx);
      const id = Number(ctx.params.role_id);
      if (!PREDEFINED_ROLES.some((role) => role.id === id)) throw notFound();
      const teams =
        id === SECURITY_MANAGER
          ? [...teamsOf(org).values()].filter((item) => securityManagersOf(org).has(item.id))
          : [];
      return pageReply(
        ctx,
        teams.sort((a, b) => a.id - b.id),
        (item) => teamRoleAssignment(ctx.base, item),
      );
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/members",
    handler: (ctx) => {
      const org = memberOrganization(ctx);
      const role = ctx.query.get("role") ?? "all";
      const ids = [
        ...(role === "member" ? [] : org.owners),
        ...(role === "admin" ? [] : org.members),
      ];
      const users = [...new Set(ids)]
        .sort((a, b) => a - b)
        .flatMap((id) => {
          const user = ctx.world.accountsById.get(id);
          return user === undefined ? [] : [user];
        });
      return pageReply(ctx, users, (user) => simpleUser(ctx.base, user));
    },
  },
];
