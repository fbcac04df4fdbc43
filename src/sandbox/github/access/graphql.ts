import { collaboratorsOf, reportedRole } from "./records.js";
import { teamsOf, teamGrant, inTeam } from "../team/records.js";
import { type Account, type Repository, type Role, roleLevel, roleName } from "../world/records.js";
import { connection, type PageArgs } from "../graphql/connection.js";
import { type GraphqlContext, type GraphqlPart, fullName } from "../graphql/context.js";
import { forbidden } from "../graphql/errors.js";
import { nodeId } from "../graphql/ids.js";
import { accountObject, teamObject } from "../graphql/resolvers/actors.js";

/**
 * `Repository.collaborators`: who the REST listing of the same affiliation lists, in its order (by
 * account), each edge with the `RepositoryPermission` of the user's highest role and the sources
 * of the user's access with each one's role name (`permissionSources`: the repository's own grant,
 * the organization's owners and base permission, the teams). DIRECT and OUTSIDE mean what REST's
 * `affiliation=direct` and `outside` mean (the schema's words for them are REST's). Reading them
 * takes push access, as over REST ("Must have push access to view repository collaborators.").
 */

const PERMISSION: Record<string, string> = {
  pull: "READ",
  triage: "TRIAGE",
  push: "WRITE",
  maintain: "MAINTAIN",
  admin: "ADMIN",
};

export interface CollaboratorArgs extends PageArgs {
  affiliation?: "ALL" | "DIRECT" | "OUTSIDE" | null;
  login?: string | null;
  query?: string | null;
}

function listed(ctx: GraphqlContext, repo: Repository, affiliation: string): Account[] {
  const { world } = ctx;
  const org = repo.org;
  const member = (user: Account) =>
    org !== null && (org.owners.has(user.id) || org.members.has(user.id));
  const users: Account[] = [];
  if (affiliation === "ALL") {
    for (const user of world.accountsById.values()) {
      if (user.type !== "User" || user.installation !== undefined) continue;
      if (reportedRole(repo, user) !== undefined) users.push(user);
    }
  } else {
    for (const id of collaboratorsOf(repo).keys()) {
      const user = world.accountsById.get(id);
      if (user === undefined) continue;
      if (affiliation === "OUTSIDE" && member(user)) continue;
      users.push(user);
    }
  }
  return users.sort((a, b) => a.id - b.id);
}

/** Where a user's access to the repository comes from, and the role each source gives. */
function sourcesOf(ctx: GraphqlContext, repo: Repository, user: Account) {
  const sources: Array<{ source: Record<string, unknown>; role: Role }> = [];
  const direct = collaboratorsOf(repo).get(user.id);
  if (direct !== undefined) {
    sources.push({
      source: {
        __typename: "Repository",
        id: nodeId("Repository", repo.id),
        name: repo.name,
        nameWithOwner: fullName(repo),
      },
      role: direct,
    });
  }
  const org = repo.org;
  if (org !== null) {
    const account = accountObject(ctx, org.account);
    if (org.owners.has(user.id)) sources.push({ source: account, role: "admin" });
    else if (org.members.has(user.id) && org.basePermission !== "none") {
      sources.push({ source: account, role: org.basePermission });
    }
    for (const team of teamsOf(org).values()) {
      if (!inTeam(team, user.id)) continue;
      const granted = teamGrant(repo, team);
      if (granted !== undefined) sources.push({ source: teamObject(ctx, team), role: granted });
    }
  }
  return sources.map(({ source, role }) => ({
    source,
    roleName: roleName(role),
    organization: org === null ? null : accountObject(ctx, org.account),
  }));
}

export function accessFields(ctx: GraphqlContext, repo: Repository) {
  return {
    collaborators: (args: CollaboratorArgs) => {
      if (!ctx.world.can(repo, ctx.caller, "push")) {
        throw forbidden("Must have push access to view repository collaborators.");
      }
      const login = args.login?.toLowerCase();
      const needle = args.query?.toLowerCase();
      const users = listed(ctx, repo, args.affiliation ?? "ALL").filter(
        (user) =>
          (login === undefined || user.login.toLowerCase() === login) &&
          (needle === undefined ||
            user.login.toLowerCase().includes(needle) ||
            (user.name ?? "").toLowerCase().includes(needle)),
      );
      return connection(
        "collaborators",
        users,
        args,
        (user) => accountObject(ctx, user),
        (user) => {
          const role = reportedRole(repo, user);
          return {
            permission: role === undefined ? null : (PERMISSION[roleLevel(role)] ?? null),
            permissionSources: sourcesOf(ctx, repo, user),
          };
        },
      );
    },
  };
}

/** This area's part of the schema: its fields of `Repository`. */
export const accessGraphql: GraphqlPart = { repository: accessFields };
