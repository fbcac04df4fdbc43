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
import type { Account, Organization } from "../world/records.js";
import {
  type Team,
  type TeamRole,
  teamsOf,
  securityManagersOf,
  teamGrantsOf,
  teamIds,
} from "./records.js";
import { memberOrganization } from "../world/access.js";
import { team } from "./shapes.js";
import { membership, reportedTeamRole, teamFull, teamMember } from "./shapes.js";
import { slugOf } from "./slug.js";

/** An organization's teams: their settings, their nesting and their members. */

/** Whether the caller sees the team: a closed team every member; a secret one its members. */
function sees(ctx: RequestContext, org: Organization, value: Team, caller: Account): boolean {
  return (
    value.privacy === "closed" || ctx.world.administers(org, caller) || value.members.has(caller.id)
  );
}

function teamInPath(ctx: RequestContext): { org: Organization; team: Team; caller: Account } {
  const org = memberOrganization(ctx);
  const caller = requireCaller(ctx);
  const found = teamsOf(org).get((ctx.params.team_slug ?? "").toLowerCase());
  if (found === undefined || !sees(ctx, org, found, caller)) throw notFound();
  return { org, team: found, caller };
}

/**
 * Editing a team, its members and deleting it: "the authenticated user must either be an
 * organization owner or a team maintainer" (GitHub's "Update a team", "Delete a team").
 */
function assertManages(ctx: RequestContext, org: Organization, value: Team, caller: Account) {
  if (ctx.world.administers(org, caller) || value.members.get(caller.id) === "maintainer") return;
  throw forbidden("You must be an organization owner or team maintainer to perform this action.");
}

function descendants(org: Organization, value: Team): Team[] {
  return [...teamsOf(org).values()].flatMap((other) =>
    other.parent === value ? [other, ...descendants(org, other)] : [],
  );
}

/** The parent a body names (`parent_team_id` first, as GitHub reads it), null to have none. */
function parentOf(
  ctx: RequestContext,
  org: Organization,
  body: Record<string, unknown>,
): Team | null | undefined {
  if ("parent_team_id" in body) {
    if (body.parent_team_id === null) return null;
    const found = [...teamsOf(org).values()].find((item) => item.id === body.parent_team_id);
    if (found === undefined) throw ctx.invalid(["Parent team not found"], "Team");
    return found;
  }
  if ("parent_team_slug" in body) {
    if (body.parent_team_slug === null) return null;
    const found = teamsOf(org).get(String(body.parent_team_slug).toLowerCase());
    if (found === undefined) throw ctx.invalid(["Parent team not found"], "Team");
    return found;
  }
  return undefined;
}

/**
 * The privacy and parent a team may have together: "When a team is nested, the `privacy` for parent
 * teams cannot be `secret`", and a nested team is closed ("For a parent or child team: `closed`",
 * GitHub's "Update a team").
 */
function nestingProblems(
  org: Organization,
  value: Team | undefined,
  privacy: Team["privacy"],
  parent: Team | null,
): string[] {
  const problems: string[] = [];
  if (parent !== null && privacy === "secret") problems.push("A nested team cannot be secret");
  if (parent !== null && parent.privacy === "secret") {
    problems.push(`Parent team ${parent.slug} is secret; a parent team cannot be secret`);
  }
  if (value !== undefined && privacy === "secret" && descendants(org, value).length > 0) {
    problems.push("A parent team cannot be secret");
  }
  if (value !== undefined && parent !== null) {
    if (parent === value || descendants(org, value).includes(parent)) {
      problems.push("A team cannot be nested under itself or one of its child teams");
    }
  }
  return problems;
}

function slugTaken(org: Organization, slug: string, except?: Team): boolean {
  const found = teamsOf(org).get(slug);
  return found !== undefined && found !== except;
}

/** Direct members, then those of child teams (GitHub: "Team members will include the members of child teams"). */
function membersOf(
  ctx: RequestContext,
  value: Team,
): Array<{ user: Account; role: TeamRole; inherited: boolean }> {
  const found = new Map<number, { role: TeamRole; inherited: boolean }>();
  for (const [id, role] of value.members) found.set(id, { role, inherited: false });
  for (const child of descendants(value.org, value)) {
    for (const [id, role] of child.members) {
      if (!found.has(id)) found.set(id, { role, inherited: true });
    }
  }
  return [...found]
    .sort(([a], [b]) => a - b)
    .flatMap(([id, { role, inherited }]) => {
      const user = ctx.world.accountsById.get(id);
      return user === undefined
        ? []
        : [{ user, role: reportedTeamRole(value, user, role), inherited }];
    });
}

export const teamRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/orgs/:org/teams",
    handler: (ctx) => {
      const org = memberOrganization(ctx);
      const caller = requireCaller(ctx);
      const teams = [...teamsOf(org).values()]
        .filter((item) => sees(ctx, org, item, caller))
        .sort((a, b) => a.id - b.id);
      return pageReply(ctx, teams, (item) => team(ctx.base, item));
    },
  },
  {
    method: "POST",
    pattern: "/orgs/:org/teams",
    operation: "POST /orgs/{org}/teams",
    handler: (ctx) => {
      const org = memberOrganization(ctx);
      const caller = requireCaller(ctx);
      const body = ctx.json();
      const name = String(body.name);
      const slug = slugOf(name);
      if (slug === "") throw ctx.invalid(["Name must contain a letter or a digit"], "Team");
      if (slugTaken(org, slug)) throw ctx.invalid(["Name must be unique for this org"], "Team");
      const parent = parentOf(ctx, org, body) ?? null;
      // "Default: `secret`" for a non-nested team, "Default for child team: `closed`".
      const privacy =
        (body.privacy as Team["privacy"] | undefined) ?? (parent === null ? "secret" : "closed");
      const problems = nestingProblems(org, undefined, privacy, parent);
      const maintainers = ((body.maintainers as string[] | undefined) ?? []).map((login) => {
        const user = ctx.world.account(login);
        if (user === undefined || !(org.owners.has(user.id) || org.members.has(user.id))) {
          problems.push(`${login} is not a member of ${org.account.login}`);
        }
        return user;
      });
      const repos = ((body.repo_names as string[] | undefined) ?? []).map((fullName) => {
        const [owner = "", repoName = ""] = fullName.split("/");
        const repo = ctx.world.repository(owner, repoName);
        if (repo === undefined || repo.org !== org)
          problems.push(`Repository ${fullName} not found`);
        return repo;
      });
      if (problems.length > 0) throw ctx.invalid(problems, "Team");
      const now = isoTime(ctx.now());
      const created: Team = {
        id: teamIds(ctx.world).next++,
        slug,
        name,
        description: typeof body.description === "string" ? body.description : null,
        org,
        privacy,
        notification_setting:
          (body.notification_setting as Team["notification_setting"] | undefined) ??
          "notifications_enabled",
        parent,
        members: new Map(),
        pending: new Map(),
        created_at: now,
        updated_at: now,
      };
      // "When you create a new team, you automatically become a team maintainer" (GitHub's
      // "Create a team"); an App's installation is no person and becomes none.
      if (caller.installation === undefined) created.members.set(caller.id, "maintainer");
      for (const user of maintainers) if (user) created.members.set(user.id, "maintainer");
      for (const repo of repos) if (repo) teamGrantsOf(repo).set(created.id, "pull");
      teamsOf(org).set(slug, created);
      return ok(teamFull(ctx.base, ctx.world, created), 201);
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/teams/:team_slug",
    handler: (ctx) => ok(teamFull(ctx.base, ctx.world, teamInPath(ctx).team)),
  },
  {
    method: "PATCH",
    pattern: "/orgs/:org/teams/:team_slug",
    operation: "PATCH /orgs/{org}/teams/{team_slug}",
    handler: (ctx) => {
      const { org, team: found, caller } = teamInPath(ctx);
      assertManages(ctx, org, found, caller);
      const body = ctx.json();
      const name = typeof body.name === "string" ? body.name : found.name;
      // A team's slug follows its name.
      const slug = slugOf(name);
      const problems: string[] = [];
      if (slug === "") problems.push("Name must contain a letter or a digit");
      else if (slugTaken(org, slug, found)) problems.push("Name must be unique for this org");
      const parentChange = parentOf(ctx, org, body);
      const parent = parentChange === undefined ? found.parent : parentChange;
      const privacy = (body.privacy as Team["privacy"] | undefined) ?? found.privacy;
      problems.push(...nestingProblems(org, found, privacy, parent));
      if (problems.length > 0) throw ctx.invalid(problems, "Team");
      teamsOf(org).delete(found.slug);
      found.name = name;
      found.slug = slug;
      teamsOf(org).set(slug, found);
      if (typeof body.description === "string") found.description = body.description;
      found.privacy = privacy;
      if (body.notification_setting !== undefined) {
        found.notification_setting = body.notification_setting as Team["notification_setting"];
      }
      found.parent = parent;
      found.updated_at = isoTime(ctx.now());
      return ok(teamFull(ctx.base, ctx.world, found));
    },
  },
  {
    method: "DELETE",
    pattern: "/orgs/:org/teams/:team_slug",
    operation: "DELETE /orgs/{org}/teams/{team_slug}",
    handler: (ctx) => {
      const { org, team: found, caller } = teamInPath(ctx);
      assertManages(ctx, org, found, caller);
      // "If you are an organization owner, deleting a parent team will delete all of its child
      // teams as well."
      for (const gone of [found, ...descendants(org, found)]) {
        teamsOf(org).delete(gone.slug);
        securityManagersOf(org).delete(gone.id);
        for (const repo of ctx.world.repositoriesByOwner.get(org.account.login.toLowerCase()) ??
          []) {
          teamGrantsOf(repo).delete(gone.id);
        }
      }
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/teams/:team_slug/members",
    handler: (ctx) => {
      const { team: found } = teamInPath(ctx);
      const role = ctx.query.get("role") ?? "all";
      const listed = membersOf(ctx, found).filter((item) => role === "all" || item.role === role);
      return pageReply(ctx, listed, ({ user, role: held, inherited }) =>
        teamMember(ctx.base, user, held, inherited),
      );
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/teams/:team_slug/memberships/:username",
    handler: (ctx) => {
      const { team: found } = teamInPath(ctx);
      const user = ctx.world.account(ctx.params.username ?? "");
      if (user === undefined) throw notFound();
      const active = found.members.get(user.id);
      if (active !== undefined) return ok(membership(ctx.base, found, user, active, "active"));
      const pending = found.pending.get(user.id);
      if (pending !== undefined) return ok(membership(ctx.base, found, user, pending, "pending"));
      throw notFound();
    },
  },
  {
    method: "PUT",
    pattern: "/orgs/:org/teams/:team_slug/memberships/:username",
    operation: "PUT /orgs/{org}/teams/{team_slug}/memberships/{username}",
    handler: (ctx) => {
      const { org, team: found, caller } = teamInPath(ctx);
      assertManages(ctx, org, found, caller);
      const role = (ctx.json().role as TeamRole | undefined) ?? "member";
      const user = ctx.world.account(ctx.params.username ?? "");
      if (user === undefined) throw notFound();
      if (user.type !== "User") {
        // The operation's 422: "Unprocessable Entity if you attempt to add an organization to a team".
        throw ctx.invalid([`${user.login} is not a user`], "Team");
      }
      if (org.owners.has(user.id) || org.members.has(user.id)) {
        found.members.set(user.id, role);
        return ok(membership(ctx.base, found, user, role, "active"));
      }
      // "An organization owner can add someone who is not part of the team's organization to a
      // team. … This newly-created membership will be in the "pending" state".
      if (!ctx.world.administers(org, caller)) {
        throw forbidden(
          `Only an organization owner can add ${user.login}, who is not a member of ${org.account.login}.`,
        );
      }
      found.pending.set(user.id, role);
      return ok(membership(ctx.base, found, user, role, "pending"));
    },
  },
  {
    method: "DELETE",
    pattern: "/orgs/:org/teams/:team_slug/memberships/:username",
    operation: "DELETE /orgs/{org}/teams/{team_slug}/memberships/{username}",
    handler: (ctx) => {
      const { org, team: found, caller } = teamInPath(ctx);
      const user = ctx.world.account(ctx.params.username ?? "");
      if (user === undefined) throw notFound();
      assertManages(ctx, org, found, caller);
      if (!found.members.delete(user.id) && !found.pending.delete(user.id)) throw notFound();
      return noContent;
    },
  },
];
